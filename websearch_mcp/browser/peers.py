"""Who is on the other end of a loopback TCP connection (Linux, from /proc): the browser's proxy
serves only the browser's own processes, not any local process that finds its port."""

from __future__ import annotations

import os
import socket
import sys
import time

from websearch_mcp.proxy.keeper import group_members


def _hex_address(address: tuple[str, int]) -> str:
    """An IPv4 address as /proc/net/tcp prints it (the 32-bit value in host order, then the port)."""
    value = int.from_bytes(socket.inet_aton(address[0]), sys.byteorder)
    return f"{value:08X}:{address[1]:04X}"


def socket_inode(local: tuple[str, int], remote: tuple[str, int]) -> int | None:
    """The inode of the TCP socket bound to `local` and connected to `remote`, or None. An earlier
    connection of the same addresses and ports may still be listed, closed and waiting (TIME_WAIT, which
    loopback lets a new connection reuse): it belongs to no process, and its inode reads 0."""
    wanted = (_hex_address(local), _hex_address(remote))
    try:
        with open("/proc/net/tcp", encoding="ascii") as table:
            next(table)
            for line in table:
                fields = line.split()
                if (fields[1], fields[2]) == wanted and fields[9] != "0":
                    return int(fields[9])
    except (OSError, ValueError, IndexError, StopIteration):
        return None
    return None


def holds(pid: int, inode: int) -> bool:
    """Whether process `pid` has socket `inode` open."""
    target = f"socket:[{inode}]"
    folder = f"/proc/{pid}/fd"
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    for name in names:
        try:
            if os.readlink(f"{folder}/{name}") == target:
                return True
        except OSError:
            continue
    return False


class GroupPeers:
    """Decides whether a connection comes from a process of one process group; remembers which
    members opened connections before (the browser's network service), to look there first."""

    def __init__(self, group: int) -> None:
        self.group = group
        self._likely: list[int] = []

    def __call__(self, peer: tuple[str, int], ours: tuple[str, int]) -> bool:
        """True when the client end of the connection peer -> ours belongs to the group. A busy
        machine can show the browser's socket in /proc a moment after the connection is accepted, so
        a connection not found is looked for again, twice, within LOOK_AGAIN seconds in all."""
        for pause in (0.0, LOOK_AGAIN / 3, LOOK_AGAIN * 2 / 3):
            time.sleep(pause)
            if self._owns(peer, ours):
                return True
        return False

    def _owns(self, peer: tuple[str, int], ours: tuple[str, int]) -> bool:
        inode = socket_inode(peer, ours)
        if inode is None:
            return False
        for pid in self._likely:
            if holds(pid, inode):
                return True
        for pid in group_members(self.group):
            if pid not in self._likely and holds(pid, inode):
                self._likely = [pid, *self._likely][:4]
                return True
        return False


LOOK_AGAIN = 0.3  # seconds: the longest a connection from outside the group waits to be refused
