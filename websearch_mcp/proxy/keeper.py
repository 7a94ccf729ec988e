"""Keeps a child's whole process tree together and ends it whole (Linux; elsewhere the command runs
as it is). Started as `python -I -S keeper.py [options] -- COMMAND ARGS...` by a server that sets
this process's parent-death signal to SIGTERM and makes it a session leader; it then

- runs COMMAND in its process group, adopting every orphan below it (a child subreaper), so a shell
  wrapper's real server or a server's own helpers stay within reach;
- on SIGTERM (the server closing it, or the server's death) or when COMMAND exits, sends SIGTERM to
  every process of the group, waits `--grace` seconds, then SIGKILLs what is left;
- with `--memory-mib N`, limits each process's data (RLIMIT_DATA) to N MiB and ends the whole group
  (exit status 3) when their resident memory together passes `--total-mib`;
- with `--remove DIR`, removes DIR (a browser profile) once nothing is left;
- with `--fds R W`, hands COMMAND descriptors R and W as 3 and 4 (Chromium's --remote-debugging-pipe).

Its own exit status is COMMAND's (128 + signal when it was killed), 3 for the memory limit.
Standard library only, and nothing outside it is imported: it must start in milliseconds.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
OVER_MEMORY = 3
POLL = 0.1
MEMORY_POLL = 0.25
_stopping = False


def _prctl(option: int, value: int) -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _on_signal(signum: int, frame: object) -> None:
    global _stopping
    _stopping = True


def group_members(group: int) -> list[int]:
    """The live processes of a process group other than this one, from /proc (also read by the
    browser's proxy, to tell the browser's own connections from others)."""
    members = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 3 and int(fields[2]) == group and fields[0] != b"Z":
            members.append(int(name))
    return members


def _resident_mib(pids: list[int]) -> float:
    """The private resident memory (RssAnon) of these processes together, in MiB."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status", "rb") as status:
                for line in status:
                    if line.startswith(b"RssAnon:"):
                        total += int(line.split()[1])
                        break
        except (OSError, ValueError, IndexError):
            continue
    return total / 1024


_ended: dict[int, int] = {}  # pid -> raw wait status, of the children collected


def _reap() -> None:
    """Collect every exited child (adopted orphans included)."""
    while True:
        try:
            pid, raw = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _ended[pid] = raw


def _end_group(group: int, grace: float) -> None:
    """SIGTERM the group, wait up to `grace` seconds, SIGKILL what is left (never this process)."""
    if not os.path.isdir("/proc"):  # no process table to read: signal the group (this process ignores SIGTERM)
        try:
            os.killpg(group, signal.SIGTERM)
        except OSError:
            return
        time.sleep(max(grace, 0.5))
        _reap()
        return
    for signum, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        if signum == signal.SIGTERM and grace <= 0:
            continue
        for pid in group_members(group):
            try:
                os.kill(pid, signum)
            except OSError:
                pass
        until = time.monotonic() + wait
        while True:
            _reap()
            if not group_members(group) or time.monotonic() >= until:
                break
            time.sleep(0.02)


def _start(command: list[str], fds: tuple[int, int] | None, memory_mib: int) -> int:
    pid = os.fork()
    if pid:
        return pid
    try:  # the child: dies with this keeper, limited, on its descriptors, then becomes COMMAND
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, signal.SIG_DFL)
        if memory_mib:
            import resource

            limit = memory_mib * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
        if fds is not None:
            import fcntl

            high = (fcntl.fcntl(fds[0], fcntl.F_DUPFD, 5), fcntl.fcntl(fds[1], fcntl.F_DUPFD, 5))  # above 4
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)
            for fd in {*fds, *high} - {3, 4}:
                os.close(fd)
        os.execvp(command[0], command)
    except OSError as err:
        os.write(2, f"cannot run {command[0]}: {err.strerror}\n".encode())
    os._exit(127)


def _detach_standard_streams(keep_stderr: bool) -> None:
    """Hold no end of the server's pipes: the server must see COMMAND's output end with COMMAND."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1) if keep_stderr else (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def _status(raw: int) -> int:
    if os.WIFSIGNALED(raw):
        return 128 + os.WTERMSIG(raw)
    return os.WEXITSTATUS(raw) if os.WIFEXITED(raw) else 1


def _watch(child: int, parent: int, memory_mib: int, total_mib: int) -> int:
    """Wait for COMMAND's end, a stop signal, the server's death or the memory limit."""
    group = os.getpgid(0)
    next_check = 0.0
    while not _stopping:
        _reap()
        if child in _ended:
            return _status(_ended[child])
        if os.getppid() != parent:  # the server died before the parent-death signal was armed
            return 1
        if memory_mib and time.monotonic() >= next_check and os.path.isdir("/proc"):
            next_check = time.monotonic() + MEMORY_POLL
            if _resident_mib(group_members(group)) > total_mib:
                return OVER_MEMORY
        time.sleep(POLL)
    return 128 + signal.SIGTERM


def main(argv: list[str]) -> int:
    """Run COMMAND as described above and return the exit status."""
    split = argv.index("--")
    options, command = argv[:split], argv[split + 1:]
    values = {name: options[options.index(name) + 1] for name in ("--grace", "--memory-mib", "--total-mib",
                                                                    "--remove", "--parent") if name in options}
    fds = (int(options[options.index("--fds") + 1]), int(options[options.index("--fds") + 2])) \
        if "--fds" in options else None
    memory_mib = int(values.get("--memory-mib", "0"))
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _on_signal)
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    child = _start(command, fds, memory_mib)
    if fds is not None:
        for fd in fds:
            os.close(fd)
    _detach_standard_streams(keep_stderr=True)
    status = _watch(child, int(values.get("--parent", str(os.getppid()))), memory_mib,
                    int(values.get("--total-mib", str(2 * memory_mib))))
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    group = os.getpgid(0)
    _end_group(group, float(values.get("--grace", "2")))
    if "--remove" in values:
        shutil.rmtree(values["--remove"], ignore_errors=True)
    if not os.path.isdir("/proc"):
        os.killpg(group, signal.SIGKILL)  # what SIGTERM left, this process with it: its status is lost
    return status


def available() -> bool:
    """Whether a keeper can run here (it forks: POSIX only)."""
    return os.name == "posix" and hasattr(os, "fork")


def command(argv: list[str], grace: float, *, memory_mib: int = 0, total_mib: int = 0, remove: str = "",
            fds: tuple[int, int] | None = None) -> list[str]:
    """The command line that runs `argv` under a keeper (in the server: see `parent_death_signal`)."""
    options = ["--grace", f"{grace:g}", "--parent", str(os.getpid())]
    if memory_mib:
        options += ["--memory-mib", str(memory_mib), "--total-mib", str(total_mib or 2 * memory_mib)]
    if remove:
        options += ["--remove", remove]
    if fds is not None:
        options += ["--fds", str(fds[0]), str(fds[1])]
    return [sys.executable, "-I", "-S", os.path.abspath(__file__), *options, "--", *argv]


def parent_death_signal(signum: int = signal.SIGTERM) -> Callable[[], object]:
    """A `preexec_fn` that has the child sent `signum` when the thread that started it ends (Linux;
    elsewhere nothing). prctl is looked up here, before the fork: the child only calls it."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return lambda: None
    return lambda: prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
