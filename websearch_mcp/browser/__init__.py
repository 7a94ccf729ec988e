"""A headless Chromium for pages built by scripts: one per process, started on first need, reused,
closed with the process (also when the process is killed: the kernel kills it with its parent).

Driven over the DevTools protocol on a pipe (no Python package needed); every request it makes goes
through the GuardedProxy, and each page renders in a browser context of its own (no shared cookies
or storage), with downloads denied, pop-ups blocked, service workers bypassed and non-proxied WebRTC
off. A page gets a render budget: until the network is idle, or the budget ends, whichever is first;
then its DOM is read.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

from websearch_mcp import log
from websearch_mcp.browser.cdp import CdpError, CdpPipe
from websearch_mcp.browser.proxy import GuardedProxy
from websearch_mcp.errors import ToolError
from websearch_mcp.fetch.addresses import AddressGuard
from websearch_mcp.fetch.slots import FairSlots

CANDIDATES = ("/usr/lib/chromium/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
              "chrome", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")
_PR_SET_PDEATHSIG = 1
_ON_FDS_3_AND_4 = ("import os, sys\n"
                   "read, write = int(sys.argv[1]), int(sys.argv[2])\n"
                   "os.dup2(read, 3)\nos.dup2(write, 4)\n"
                   "[os.close(fd) for fd in (read, write) if fd not in (3, 4)]\n"
                   "os.execv(sys.argv[3], sys.argv[3:])\n")
_DOM = "document.documentElement ? document.documentElement.outerHTML : ''"
READ_SECONDS = 3.0  # reading the DOM and closing the tab, after the render budget


class RenderError(ToolError):
    """The browser could not render a page."""


@dataclass
class RenderedPage:
    """A page's DOM after its scripts ran."""

    html: str
    final_url: str
    elapsed_ms: float
    settled: bool  # the network went idle within the budget (else the budget ended first)


def _left(until: float) -> float:
    """Seconds until `until`, at least a little (a command needs some time to be answered at all)."""
    return max(0.2, until - time.monotonic())


def find_browser(configured: str = "") -> str | None:
    """The Chromium or Chrome to run: the configured one, else the first found."""
    for name in ((configured,) if configured else CANDIDATES):
        found = shutil.which(name) or (name if os.path.isfile(name) and os.access(name, os.X_OK) else None)
        if found:
            return found
    return None


class Browser:
    """The process's headless Chromium and the proxy in front of it."""

    def __init__(self, executable: str, guard: AddressGuard, concurrency: int = 4) -> None:
        self.executable = executable
        self.guard = guard
        self._slots = FairSlots(concurrency)
        self._lock = threading.Lock()
        self._proxy: GuardedProxy | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._pipe: CdpPipe | None = None
        self._profile = ""
        atexit.register(self.close)

    @property
    def pid(self) -> int | None:
        """The browser's process id, while it runs."""
        return self._process.pid if self._process is not None else None

    def render(self, url: str, budget: float, deadline: float | None = None) -> RenderedPage:
        """Load a page, let its scripts run within the budget, and return its DOM."""
        started = time.monotonic()
        until = started + budget if deadline is None else min(started + budget, deadline)
        if not self._slots.acquire(until):
            raise RenderError("no browser tab came free before the page's render budget ran out")
        try:
            pipe = self._running(until)
            return self._render(pipe, url, started, until)
        except CdpError as err:
            raise RenderError(f"the browser could not render the page ({err})") from err
        finally:
            self._slots.release()

    def _render(self, pipe: CdpPipe, url: str, started: float, until: float) -> RenderedPage:
        context = pipe.send("Target.createBrowserContext", {
            "disposeOnDetach": True, "proxyServer": f"http://{self._proxy_address()}",
            "proxyBypassList": "<-loopback>"}, timeout=_left(until))["browserContextId"]
        try:
            pipe.send("Browser.setDownloadBehavior", {"behavior": "deny", "browserContextId": context},
                      timeout=_left(until))
            target = pipe.send("Target.createTarget", {"url": "about:blank", "browserContextId": context},
                               timeout=_left(until))["targetId"]
            session = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                timeout=_left(until))["sessionId"]
            try:
                for method, params in (("Page.enable", {}), ("Page.setLifecycleEventsEnabled", {"enabled": True}),
                                       ("Network.setBypassServiceWorker", {"bypass": True})):
                    pipe.send(method, params, session=session, timeout=_left(until))
                navigation = pipe.send("Page.navigate", {"url": url}, session=session, timeout=_left(until))
                if navigation.get("errorText"):
                    raise RenderError(f"the browser could not load the page ({navigation['errorText']})")
                settled = self._wait_for_idle(pipe, session, navigation.get("loaderId", ""), until)
                html = self._evaluate(pipe, session, _DOM)
                final_url = self._evaluate(pipe, session, "location.href") or url
            finally:
                pipe.forget(session)
        finally:
            try:
                pipe.send("Target.disposeBrowserContext", {"browserContextId": context}, timeout=READ_SECONDS)
            except CdpError:
                pass
        return RenderedPage(html, final_url, (time.monotonic() - started) * 1000, settled)

    @staticmethod
    def _wait_for_idle(pipe: CdpPipe, session: str, loader: str, until: float) -> bool:
        while True:
            event = pipe.wait_event(session, {"Page.lifecycleEvent"}, until)
            if event is None:
                return False
            params = event.get("params", {})
            if params.get("name") == "networkIdle" and (not loader or params.get("loaderId") == loader):
                return True

    @staticmethod
    def _evaluate(pipe: CdpPipe, session: str, expression: str) -> str:
        result = pipe.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=session,
                           timeout=READ_SECONDS)
        value = result.get("result", {}).get("value")
        return value if isinstance(value, str) else ""

    def _proxy_address(self) -> str:
        assert self._proxy is not None
        return self._proxy.address

    def _running(self, until: float) -> CdpPipe:
        """The running browser, started now if need be; RenderError when that takes past `until`."""
        if not self._lock.acquire(timeout=max(0.0, until - time.monotonic())):
            raise RenderError("the browser was still starting when the page's render budget ran out")
        try:
            if self._pipe is not None and not self._pipe.closed.is_set():
                return self._pipe
            self._stop_process()
            if self._proxy is None:
                self._proxy = GuardedProxy(self.guard)
            self._pipe = self._launch(until)
            return self._pipe
        finally:
            self._lock.release()

    def _launch(self, until: float) -> CdpPipe:
        """Start Chromium from a thread that lives as long as the process: the kernel kills the
        browser when the thread that started it ends (PR_SET_PDEATHSIG), so it must not be a call's."""
        started = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            try:
                self._start_process()
            except BaseException as err:  # reported to the caller below
                failure.append(err)
            started.set()
            threading.Event().wait()  # keep this thread, and so the browser's lifeline, alive

        threading.Thread(target=run, name="browser-launcher", daemon=True).start()
        started.wait(_left(until))
        if failure or self._process is None:
            raise RenderError(f"could not start the browser {self.executable} ({failure[0] if failure else 'timeout'})")
        pipe = CdpPipe(self._to_browser, self._from_browser)
        try:
            pipe.send("Target.setDiscoverTargets", {"discover": False}, timeout=_left(until))  # answers once it is up
        except CdpError:
            self._stop_process()  # not up within the budget: the next render starts afresh
            raise
        log.info(f"browser started: {self.executable} (pid {self._process.pid})")
        return pipe

    def _start_process(self) -> None:
        commands_read, self._to_browser = os.pipe()
        self._from_browser, answers_write = os.pipe()
        self._profile = tempfile.mkdtemp(prefix="websearch-mcp-chromium-")
        flags = [
            "--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--no-default-browser-check",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-extensions", "--disable-default-apps", "--disable-breakpad", "--mute-audio",
            "--disable-dev-shm-usage", "--dns-prefetch-disable", "--block-new-web-contents",
            "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
            "--webrtc-ip-handling-policy=disable_non_proxied_udp",
            f"--proxy-server=http://{self._proxy_address()}", "--proxy-bypass-list=<-loopback>",
            "--remote-debugging-pipe", f"--user-data-dir={self._profile}", "about:blank",
        ]
        if os.name == "posix" and os.geteuid() == 0:
            flags.insert(0, "--no-sandbox")  # Chromium refuses to run its sandbox as root
        # a tiny Python step puts the pipe ends on fds 3 and 4, where --remote-debugging-pipe expects
        # them (a POSIX shell cannot name descriptors above 9), then becomes the browser
        self._process = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _ON_FDS_3_AND_4, str(commands_read), str(answers_write),
             self.executable, *flags], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, pass_fds=(commands_read, answers_write), start_new_session=True,
            preexec_fn=_die_with_parent)
        os.close(commands_read)
        os.close(answers_write)

    def _stop_process(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except OSError:
                process.kill()
            process.wait(5)
        if self._profile:
            shutil.rmtree(self._profile, ignore_errors=True)
            self._profile = ""

    def close(self) -> None:
        """Stop the browser and the proxy (also run at exit)."""
        with self._lock:
            self._stop_process()
            if self._proxy is not None:
                self._proxy.close()
                self._proxy = None
            self._pipe = None


def _die_with_parent() -> None:
    """In the child: be killed when the thread that started it (the launcher, which lives as long as
    the server) ends, so a killed server leaves no browser behind (Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
