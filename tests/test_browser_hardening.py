"""The browser under attack, with a real headless Chromium, real signals and the hand-made hostile
pages of fixtures/handmade/browser/: its profile is removed however the server ends; what is read
back from a rendered page is capped and the browser's memory is limited; a page that sends the
browser to a refused address is a failure; its proxy serves the browser only, on web ports; the
DevTools pipe keeps no events of finished renders."""

from __future__ import annotations

import array
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import client_environment, env_for, installed_command
from tests.fake_upstream import FIXTURES, Reply
from tests.helpers import call, descendants
from tests.test_browser import TIDE_POOLS, serve_shell
from tests.test_browser_addresses import _namespaces_work
from websearch_mcp.browser import Browser, RenderError, find_browser
from websearch_mcp.browser.peers import GroupPeers
from websearch_mcp.fetch.addresses import AddressGuard

pytestmark = pytest.mark.skipif(find_browser() is None, reason="no Chromium installed (apt-get install chromium)")

HOSTILE = FIXTURES / "handmade" / "browser"
SCENARIO = Path(__file__).resolve().parent / "browser_hostile_netns_scenario.py"


def serve_hostile(upstream, *names: str) -> None:
    for name in names:
        upstream.route("GET", f"/{name}", Reply(body=(HOSTILE / name).read_bytes()))


class Server:
    """The installed server on a pipe, as a client runs it, with its own temporary folder."""

    def __init__(self, upstream, temp: Path, **env: str) -> None:
        temp.mkdir(exist_ok=True)
        self.temp = temp
        self.process = subprocess.Popen(
            [installed_command()], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=client_environment({**env_for(upstream), "WEBSEARCH_ALLOW_PRIVATE_URLS": "1", "TMPDIR": str(temp),
                                    **env}))

    def fetch(self, urls: list[str], **arguments: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write((json.dumps(call("fetch_content", {"urls": urls, **arguments})) + "\n").encode())
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())["result"]

    def profiles(self) -> list[Path]:
        return list(self.temp.glob("websearch-mcp-chromium-*"))

    def peak_mib(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024  # type: ignore[union-attr]


def _is_chromium(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/exe").resolve().name.startswith("chrom")
    except OSError:
        return False


@pytest.fixture
def temp() -> Any:
    """A temporary folder with a short path (Chromium keeps a socket there: paths over 107 bytes fail)."""
    folder = Path(tempfile.mkdtemp(prefix="wsm-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("ending", ["SIGTERM", "SIGKILL", "EOF"])
def test_the_profile_is_removed_however_the_server_ends(upstream, temp, ending):
    serve_shell(upstream)
    server = Server(upstream, temp)
    try:
        result = server.fetch([f"{upstream.url}/index.html"])
        assert result["structuredContent"]["pages"], result
        page = result["structuredContent"]["pages"][0]
        assert TIDE_POOLS in page["content"] and page["metadata"]["rendered"] is True
        browsers = {pid for pid in descendants(server.process.pid) if _is_chromium(pid)}
        assert browsers and len(server.profiles()) == 1 and server.profiles()[0].is_dir()
        if ending == "EOF":
            server.process.stdin.close()  # type: ignore[union-attr]
        else:
            server.process.send_signal(getattr(signal, ending))
        server.process.wait(20)
        until = time.monotonic() + 10
        while (server.profiles() or any(_is_chromium(pid) for pid in browsers)) and time.monotonic() < until:
            time.sleep(0.1)
        assert server.profiles() == [] and not [pid for pid in browsers if _is_chromium(pid)]
    finally:
        server.process.kill()
        server.process.wait(5)


def test_what_is_read_back_from_a_rendered_page_is_capped(upstream, temp):
    serve_hostile(upstream, "dom-27m.html")
    server = Server(upstream, temp)
    try:
        result = server.fetch([f"{upstream.url}/dom-27m.html"], render="always")
        page = result["structuredContent"]["pages"][0]
        note = page["metadata"]["render_note"]
        assert re.search(r"the rendered page held 27,\d{3},\d{3} characters; the first 5,242,880 were read", note), note
        assert page["content"].startswith("A row of text that repeats.")
        assert server.peak_mib() < 400  # the 27 M characters were never read back whole
    finally:
        server.process.kill()
        server.process.wait(5)


def test_a_page_cannot_take_more_memory_than_a_browser_process_may_hold(upstream, temp):
    serve_hostile(upstream, "memory-hog.html")
    server = Server(upstream, temp)
    try:
        result = server.fetch([f"{upstream.url}/memory-hog.html?mb=3072"], render="always")
        page = result["structuredContent"]["pages"][0]
        held = int(re.search(r"This page holds (\d+) MB", page["content"]).group(1))  # type: ignore[union-attr]
        assert 0 < held <= 2048  # it asked for 3072: its allocations failed at the limit
        serve_shell(upstream)  # and the browser still renders the next page
        assert TIDE_POOLS in server.fetch([f"{upstream.url}/index.html"])["structuredContent"]["pages"][0]["content"]
    finally:
        server.process.kill()
        server.process.wait(5)


def test_a_browser_past_its_memory_limit_is_stopped_and_the_next_page_renders(upstream):
    serve_hostile(upstream, "memory-hog.html")
    upstream.route("GET", "/plain", Reply.fixture("handmade/pages/article.html"))
    browser = Browser(find_browser() or "", AddressGuard(allow_private=True), memory_mib=700)
    try:
        with pytest.raises(RenderError, match=r"past its memory limit \(700 MiB\), and the browser was stopped"):
            browser.render(f"{upstream.url}/memory-hog.html?mb=1024", 10)
        assert "<h1" in browser.render(f"{upstream.url}/plain", 10).html
    finally:
        browser.close()


@pytest.fixture(scope="module")
def hostile_on_a_public_address() -> dict[str, Any]:
    if not _namespaces_work():
        pytest.skip("network namespaces are not available here (unshare -rn, ip)")
    done = subprocess.run(["unshare", "-rn", sys.executable, str(SCENARIO), installed_command()],
                          capture_output=True, timeout=150)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return json.loads(done.stdout)


def test_a_page_that_sends_the_browser_to_a_private_address_is_a_failure(hostile_on_a_public_address):
    seen = hostile_on_a_public_address
    failed = {entry["url"].rsplit("/", 1)[1]: entry["error"] for entry in seen["result"]["structuredContent"]["failed"]}
    assert failed["to-metadata.html"].startswith(
        "the page sent the browser to http://169.254.169.254/latest/meta-data/, an address it may not reach")
    assert failed["to-metadata-tls.html"].startswith(
        "the page sent the browser to an address it may not reach (169.254.169.254:443)")
    read = [page["url"].rsplit("/", 1)[1] for page in seen["result"]["structuredContent"]["pages"]]
    assert read == ["probe-ports.html"]
    assert seen["connections"]["169.254.169.254:80"] == 0 and seen["connections"]["169.254.169.254:443"] == 0


def test_the_browser_reaches_web_ports_only(hostile_on_a_public_address):
    seen = hostile_on_a_public_address
    page = next(p for p in seen["result"]["structuredContent"]["pages"] if p["url"].endswith("/probe-ports.html"))
    assert "knocked on ports that serve no web pages" in page["content"]
    assert seen["connections"]["93.184.216.35:6379"] == 0 and seen["connections"]["93.184.216.35:11211"] == 0
    assert any("refused CONNECT 93.184.216.35:11211: not a web port" in line for line in seen["log"]), seen["log"]


def _listening_ports() -> set[int]:
    """The loopback TCP ports this process listens on (Linux, from /proc)."""
    ours = set()
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            continue
        if target.startswith("socket:["):
            ours.add(int(target[8:-1]))
    ports = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "0A" and int(fields[9]) in ours and fields[1].startswith("0100007F:"):
            ports.add(int(fields[1].split(":")[1], 16))
    return ports


def _ask(port: int, raw: bytes) -> bytes:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
            client.sendall(raw)
            data = b""
            while chunk := client.recv(4096):
                data += chunk
            return data
    except OSError as err:
        return str(err).encode()


def test_only_the_browser_may_use_its_proxy(upstream):
    upstream.route("GET", "/slow.html", Reply(body=b"<html><body><p>" + b"A page that loads slowly. " * 5
                                              + b"</p><img src='/held.png'></body></html>"))
    upstream.route("GET", "/held.png", Reply(body=b"", content_type="image/png", delay=3.0))
    upstream.route("GET", "/secret", Reply(body=b"internal data"))
    browser = Browser(find_browser() or "", AddressGuard(allow_private=True))
    rendered: list[Any] = []
    try:
        rendering = threading.Thread(target=lambda: rendered.append(browser.render(f"{upstream.url}/slow.html", 8)))
        rendering.start()
        until = time.monotonic() + 15
        while upstream.count("/held.png") == 0 and time.monotonic() < until:
            time.sleep(0.05)
        assert upstream.count("/held.png") == 1  # the page is rendering now, through its proxy
        upstream_port = int(upstream.url.rsplit(":", 1)[1])
        request = f"GET {upstream.url}/secret HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        answers = {port: _ask(port, request) for port in _listening_ports() - {upstream_port}}
        rendering.join(15)
    finally:
        browser.close()
    assert upstream.count("/secret") == 0, answers
    assert any(b"this proxy serves its browser only" in answer for answer in answers.values()), answers
    assert rendered and "loads slowly" in rendered[0].html  # while the browser itself was served


def test_the_devtools_pipe_keeps_no_events_of_finished_renders(upstream):
    upstream.route("GET", "/plain", Reply(body=b"<html><body><p>" + b"A plain page. " * 5 + b"</p></body></html>"))
    browser = Browser(find_browser() or "", AddressGuard(allow_private=True))
    try:
        for _ in range(10):
            assert "A plain page." in browser.render(f"{upstream.url}/plain", 5).html
        pipe = browser._pipe
        assert pipe is not None and len(pipe._events) == 0  # one queue per render was kept before
    finally:
        browser.close()


HOLDER = """
import array, socket, sys, time
channel = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
channel.connect(sys.argv[1])
fds = array.array("i")
message, ancillary, _, _ = channel.recvmsg(1, socket.CMSG_LEN(fds.itemsize))
fds.frombytes(ancillary[0][2])
time.sleep(5)  # holds the connection's socket
"""


def test_a_connection_whose_socket_shows_in_the_group_a_moment_late_is_the_groups(tmp_path):
    """On a busy machine the browser's socket can appear in /proc after the proxy accepted it: the
    proxy looks again before it refuses (here the socket reaches a process of the group 0.1 s late)."""
    path = str(tmp_path / "hand-over")
    channel = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    channel.bind(path)
    channel.listen(1)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, path], start_new_session=True)
    listener = socket.create_server(("127.0.0.1", 0))
    try:
        handing, _ = channel.accept()
        client = socket.create_connection(listener.getsockname())
        server, peer = listener.accept()
        verdict: list[bool] = []
        judging = threading.Thread(target=lambda: verdict.append(GroupPeers(holder.pid)(peer, server.getsockname())))
        judging.start()
        time.sleep(0.1)
        handing.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [client.fileno()]))])
        time.sleep(0.05)
        client.close()  # only the group's process holds it now
        judging.join(5)
        assert verdict == [True]
        assert GroupPeers(os.getpgid(0) + 999_999)(peer, server.getsockname()) is False  # no such group: refused
    finally:
        holder.kill()
        holder.wait()
        listener.close()
        channel.close()
