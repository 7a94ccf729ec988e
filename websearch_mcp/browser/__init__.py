"""A headless Chromium for pages built by scripts: one per process, started on first need, reused,
closed with the process, however it ends: it runs under a keeper (websearch_mcp/proxy/keeper.py)
that the kernel signals when the server dies, which ends the browser's processes and removes its
profile. Each browser process may hold PROCESS_MEMORY_MIB of data, all of them BROWSER_MEMORY_MIB.

Driven over the DevTools protocol on a pipe (no Python package needed); every request it makes goes
through a GuardedProxy of the page's own, which only the browser's processes may use, and each page
renders in a browser context of its own (no shared cookies or storage), with downloads denied,
pop-ups blocked, service workers bypassed and non-proxied WebRTC off. A page gets a render budget:
until the network is idle, or the budget ends, whichever is first; then its DOM is read, up to a
number of characters. A page that sends the browser to an address the proxy refused is a failure.
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from websearch_mcp import log
from websearch_mcp.browser.cdp import CdpError, CdpPipe
from websearch_mcp.browser.peers import GroupPeers
from websearch_mcp.browser.proxy import GuardedProxy, closed_proxy
from websearch_mcp.errors import ToolError
from websearch_mcp.fetch.addresses import AddressGuard
from websearch_mcp.fetch.slots import FairSlots
from websearch_mcp.proxy import keeper

CANDIDATES = ("/usr/lib/chromium/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
              "chrome", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")
_DOM = ("(() => {{ const html = document.documentElement ? document.documentElement.outerHTML : '';"
        " return [html.length > {limit} ? html.slice(0, {limit}) : html, html.length]; }})()")
READ_SECONDS = 3.0  # reading the DOM and closing the tab, after the render budget
MAX_DOM_CHARS = 5 * 1024 * 1024  # read back from a rendered page unless the caller says otherwise
PROCESS_MEMORY_MIB = 2048  # data (RLIMIT_DATA) of each browser process: past it a page cannot allocate
BROWSER_MEMORY_MIB = 3072  # resident memory of all the browser's processes: past it the browser is stopped


class RenderError(ToolError):
    """The browser could not render a page."""


class NavigationRefused(RenderError):
    """The page sent the browser somewhere the proxy refused: what it shows is not the page."""


@dataclass
class RenderedPage:
    """A page's DOM after its scripts ran."""

    html: str
    final_url: str
    elapsed_ms: float
    settled: bool  # the network went idle within the budget (else the budget ended first)
    dom_chars: int = 0  # the DOM's full length, when `html` holds only its first characters


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
    """The process's headless Chromium and the proxies in front of it (one per page rendering)."""

    def __init__(self, executable: str, guard: AddressGuard, concurrency: int = 4,
                 process_memory_mib: int = PROCESS_MEMORY_MIB, memory_mib: int = BROWSER_MEMORY_MIB) -> None:
        self.executable = executable
        self.guard = guard
        self.process_memory_mib = process_memory_mib
        self.memory_mib = memory_mib
        self._slots = FairSlots(concurrency)
        self._lock = threading.Lock()
        self._proxy: GuardedProxy | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._pipe: CdpPipe | None = None
        self._peers: GroupPeers | None = None
        self._profile = ""
        atexit.register(self.close)

    @property
    def pid(self) -> int | None:
        """The id of the browser's keeper, whose process group holds the browser, while it runs."""
        return self._process.pid if self._process is not None else None

    def render(self, url: str, budget: float, deadline: float | None = None,
               max_chars: int = MAX_DOM_CHARS) -> RenderedPage:
        """Load a page, let its scripts run within the budget, and return (up to `max_chars` of) its DOM."""
        started = time.monotonic()
        until = started + budget if deadline is None else min(started + budget, deadline)
        if not self._slots.acquire(until):
            raise RenderError("no browser tab came free before the page's render budget ran out")
        try:
            pipe = self._running(until)
            proxy = GuardedProxy(self.guard, ports=_origin_ports(url), peers=self._peers)  # this page's own
            try:
                page = self._render(pipe, proxy, url, started, until, max_chars)
            finally:
                proxy.close()
            _check_destination(page.final_url, proxy)
            return page
        except CdpError as err:
            raise RenderError(self._failure(err)) from err
        finally:
            self._slots.release()

    def _failure(self, err: CdpError) -> str:
        """Why a render failed: the browser's memory limit, or what the browser said."""
        process = self._process
        if process is not None and self._pipe is not None and self._pipe.closed.is_set():
            try:
                process.wait(2)
            except subprocess.TimeoutExpired:
                pass
            if process.returncode == keeper.OVER_MEMORY:
                return (f"the page took the browser past its memory limit ({self.memory_mib} MiB), "
                        "and the browser was stopped")
        return f"the browser could not render the page ({err})"

    def _render(self, pipe: CdpPipe, proxy: GuardedProxy, url: str, started: float, until: float,
                max_chars: int) -> RenderedPage:
        context = pipe.send("Target.createBrowserContext", {
            "disposeOnDetach": True, "proxyServer": f"http://{proxy.address}",
            "proxyBypassList": "<-loopback>"}, timeout=_left(until))["browserContextId"]
        try:
            pipe.send("Browser.setDownloadBehavior", {"behavior": "deny", "browserContextId": context},
                      timeout=_left(until))
            target = pipe.send("Target.createTarget", {"url": "about:blank", "browserContextId": context},
                               timeout=_left(until))["targetId"]
            session = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                timeout=_left(until))["sessionId"]
            pipe.listen(session)
            try:
                for method, params in (("Inspector.enable", {}), ("Page.enable", {}),
                                       ("Page.setLifecycleEventsEnabled", {"enabled": True}),
                                       ("Network.setBypassServiceWorker", {"bypass": True})):
                    pipe.send(method, params, session=session, timeout=_left(until))
                navigation = pipe.send("Page.navigate", {"url": url}, session=session, timeout=_left(until))
                if navigation.get("errorText"):
                    raise RenderError(f"the browser could not load the page ({navigation['errorText']})")
                settled = self._wait_for_idle(pipe, session, navigation.get("loaderId", ""), until)
                dom = self._evaluate(pipe, session, _DOM.format(limit=max(0, int(max_chars))))
                final_url = self._evaluate(pipe, session, "location.href") or url
            finally:
                pipe.forget(session)
        finally:
            try:
                pipe.send("Target.disposeBrowserContext", {"browserContextId": context}, timeout=READ_SECONDS)
            except CdpError:
                pass
        html, length = (dom[0], dom[1]) if isinstance(dom, list) and len(dom) == 2 else ("", 0)
        html = html if isinstance(html, str) else ""
        full = length if isinstance(length, int) and length > len(html) else 0
        return RenderedPage(html, str(final_url), (time.monotonic() - started) * 1000, settled, full)

    def _wait_for_idle(self, pipe: CdpPipe, session: str, loader: str, until: float) -> bool:
        while True:
            event = pipe.wait_event(session, {"Page.lifecycleEvent", "Inspector.targetCrashed"}, until)
            if event is None:
                return False
            if event.get("method") == "Inspector.targetCrashed":
                raise RenderError(f"the page crashed its browser tab (each browser process may hold "
                                  f"{self.process_memory_mib} MiB)")
            params = event.get("params", {})
            if params.get("name") == "networkIdle" and (not loader or params.get("loaderId") == loader):
                return True

    @staticmethod
    def _evaluate(pipe: CdpPipe, session: str, expression: str) -> object:
        result = pipe.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=session,
                           timeout=READ_SECONDS)
        return result.get("result", {}).get("value")

    def _running(self, until: float) -> CdpPipe:
        """The running browser, started now if need be; RenderError when that takes past `until`."""
        if not self._lock.acquire(timeout=max(0.0, until - time.monotonic())):
            raise RenderError("the browser was still starting when the page's render budget ran out")
        try:
            if self._pipe is not None and not self._pipe.closed.is_set():
                return self._pipe
            self._stop_process()
            if self._proxy is None:
                self._proxy = closed_proxy()
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
        log.info(f"browser started: {self.executable} (keeper pid {self._process.pid})")
        return pipe

    def _start_process(self) -> None:
        assert self._proxy is not None
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
            f"--proxy-server=http://{self._proxy.address}", "--proxy-bypass-list=<-loopback>",
            "--remote-debugging-pipe", f"--user-data-dir={self._profile}", "about:blank",
        ]
        if os.name == "posix" and os.geteuid() == 0:
            flags.insert(0, "--no-sandbox")  # Chromium refuses to run its sandbox as root
        # the keeper puts the pipe ends on fds 3 and 4, where --remote-debugging-pipe expects them,
        # limits the browser's memory, and removes the profile once the browser is gone
        command = keeper.command([self.executable, *flags], grace=0, memory_mib=self.process_memory_mib,
                                 total_mib=self.memory_mib, remove=self._profile,
                                 fds=(commands_read, answers_write))
        self._process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(commands_read, answers_write), start_new_session=True,
            preexec_fn=keeper.parent_death_signal())
        os.close(commands_read)
        os.close(answers_write)
        # the browser's processes share the keeper's process group: they, and only they, may use its proxies
        self._peers = GroupPeers(self._process.pid) if os.path.exists("/proc/net/tcp") else None

    def _stop_process(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()  # the keeper ends the browser's processes and removes the profile
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
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


def _origin_ports(url: str) -> set[int]:
    """The port of the page's own origin, which its proxy allows beside the web ports."""
    try:
        parts = urlsplit(url)
        return {parts.port or (443 if parts.scheme == "https" else 80)}
    except ValueError:
        return set()


def _check_destination(final_url: str, proxy: GuardedProxy) -> None:
    """NavigationRefused when the page ended where the proxy refused to go (its refusal, or the
    browser's error page, is what the tab shows)."""
    refused = list(dict.fromkeys(proxy.refused))
    if not refused:
        return
    if final_url.startswith("chrome-error:"):
        raise NavigationRefused(f"the page sent the browser to an address it may not reach ({', '.join(refused[:3])});"
                                " refused")
    try:
        parts = urlsplit(final_url)
        where = f"{parts.hostname}:{parts.port or (443 if parts.scheme == 'https' else 80)}"
    except ValueError:
        return
    if where in refused:
        raise NavigationRefused(f"the page sent the browser to {final_url}, an address it may not reach "
                                "(not a public address, or not a web port); refused")
