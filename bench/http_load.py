"""The embedded HTTP server under load, side by side in one run (`make bench`; BENCH_LOAD_SECONDS).

Servers, each in its own process on loopback: the stdlib server as it was before (a thread per
request, the stdlib's listen backlog of 5), the stdlib server as it is now (a backlog of 1024 and a
bounded pool of handler threads), and waitress (the `http` extra).

1. Lost requests: 50 clients, each opening a new connection per request (as HTTP/1.0 clients and
   most scripts do), POST tools/list to /mcp for the whole time; a reset or refused connection, or any
   answer but 200, counts as lost.
2. Memory under upstream faults: 50 clients call fetch_content on 4 URLs each, where 30% of the
   upstream's replies are oversized (20 MiB), stalled, reset or garbled; the server's peak RSS.
3. Idle connections: 200 connections opened and left silent, then 40 ordinary requests (one at a
   time, 3 s client timeout): how many fail, and their rate against the same requests without them.
4. Pipelining: 21 requests written at once on one keep-alive connection: how many are answered.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
for _name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
    os.environ.pop(_name, None)

from tests.conftest import client_environment, engine_urls  # noqa: E402
from tests.fake_upstream import FakeUpstream, Reply  # noqa: E402
from tests.store_parts import free_port  # noqa: E402
from tests.test_store import wait_for_http  # noqa: E402

SECONDS = float(os.environ.get("BENCH_LOAD_SECONDS", "20"))
CLIENTS = 50
LIST = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
           "Connection": "close"}
# the server as it was: ThreadingMixIn (a thread per request) and the stdlib's request_queue_size of 5
BEFORE = """
import socketserver, sys
from wsgiref.simple_server import WSGIServer, WSGIRequestHandler, make_server
from websearch_mcp.config import load_config
from websearch_mcp.transports.http.app import create_app
class Server(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True
class Quiet(WSGIRequestHandler):
    def log_message(self, *args): pass
make_server("127.0.0.1", int(sys.argv[1]), create_app(load_config()), Server, Quiet).serve_forever()
"""


def start(kind: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    if kind == "before":
        command = [sys.executable, "-c", BEFORE, str(port)]
    else:
        command = [str(Path(sys.executable).parent / "websearch-mcp"), "--http", f"127.0.0.1:{port}"]
        env = {**env, "WEBSEARCH_HTTP_SERVER": kind}
    process = subprocess.Popen(command, env=client_environment(env), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    wait_for_http(port)
    return process, port


def hammer(port: int, seconds: float, body_for: object = None) -> tuple[int, int, list[float], dict[str, int]]:
    """(answered, lost, latencies, why lost) of CLIENTS clients posting for `seconds`, a new connection
    each time; a client waits up to 120 s for an answer."""
    answered, lost, latencies = [0], [0], []
    why: dict[str, int] = {}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client() -> None:
        while time.monotonic() < stop:
            started = time.perf_counter()
            problem = ""
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                body = body_for() if callable(body_for) else LIST
                connection.request("POST", "/mcp", body=body, headers=HEADERS)
                status = connection.getresponse().status
                connection.close()
                problem = "" if status == 200 else f"HTTP {status}"
            except TimeoutError:
                problem = "client gave up after 120 s"
            except OSError as err:
                problem = type(err).__name__
            with lock:
                (answered if not problem else lost)[0] += 1
                if problem:
                    why[problem] = why.get(problem, 0) + 1
                latencies.append(time.perf_counter() - started)

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answered[0], lost[0], latencies, why


def idle_connections(port: int, idle: int = 200, requests: int = 40) -> tuple[int, float, float]:
    """(failed, requests/s with idle connections open, requests/s without) of `requests` sequential
    tools/list requests, each with a 3 s client timeout."""
    import socket

    def run() -> tuple[int, float]:
        failed = 0
        started = time.perf_counter()
        for _ in range(requests):
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
                connection.request("POST", "/mcp", body=LIST, headers=HEADERS)
                failed += connection.getresponse().status != 200
                connection.close()
            except OSError:
                failed += 1
        return failed, requests / (time.perf_counter() - started)

    _, quiet_rate = run()
    sockets = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(idle)]
    try:
        failed, busy_rate = run()
    finally:
        for sock in sockets:
            sock.close()
    return failed, busy_rate, quiet_rate


def pipelined(port: int, count: int = 21) -> int:
    """How many of `count` requests written at once on one connection are answered."""
    import socket

    head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nContent-Length: {len(LIST)}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall((head + LIST) * count)
        data = b""
        try:
            while data.count(b'"jsonrpc"') < count:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except TimeoutError:
            pass
    return data.count(b'"jsonrpc"')


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def faulty_upstream(upstream: FakeUpstream) -> None:
    """Seven pages in ten are good; the others are oversized, stalled, reset or garbled."""
    good = (ROOT / "fixtures" / "handmade" / "pages" / "article.html").read_bytes()

    def reply(seen: object) -> Reply:
        roll = random.random()
        if roll < 0.075:
            return Reply(fault="oversize", oversize_bytes=20 << 20)
        if roll < 0.15:
            return Reply(body=good, fault="drip", drip_seconds=0.2)
        if roll < 0.225:
            return Reply(fault="reset")
        if roll < 0.3:
            return Reply(body=bytes(random.getrandbits(8) for _ in range(200_000)))
        return Reply(body=good)

    upstream.route("GET", "/page", reply)


def main() -> None:
    print(f"HTTP server under load: {CLIENTS} clients, a new connection per request, {SECONDS:g} s each "
          f"(server and clients share {os.cpu_count()} cores)")
    with FakeUpstream() as upstream:
        faulty_upstream(upstream)
        env = {**{f"WEBSEARCH_{k.upper()}": v for k, v in engine_urls(upstream.url).items()},
               "WEBSEARCH_STORE": "memory", "WEBSEARCH_ALLOW_PRIVATE_URLS": "1", "WEBSEARCH_CACHE_TTL": "0",
               "WEBSEARCH_TIMEOUT": "5"}
        for kind in ("before", "stdlib", "waitress"):
            process, port = start(kind, env)
            try:
                answered, lost, latencies, why = hammer(port, SECONDS)
                p50 = statistics.median(latencies) * 1000
                p99 = statistics.quantiles(latencies, n=100)[98] * 1000
                print(f"  {kind:<9} tools/list: {answered:6d} answered, {lost:4d} lost "
                      f"({100 * lost / max(1, answered + lost):.2f}%), {answered / SECONDS:6.0f} req/s, "
                      f"p50 {p50:6.1f} ms, p99 {p99:7.1f} ms {why or ''}")

                def fetch_body() -> bytes:
                    urls = [f"{upstream.url}/page?{random.random()}" for _ in range(4)]
                    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                       "params": {"name": "fetch_content", "arguments": {"urls": urls}}}).encode()

                answered, lost, latencies, why = hammer(port, SECONDS / 2, fetch_body)
                print(f"  {'':<9} fetch_content, 30% of upstream replies faulty: {answered} answered, {lost} lost "
                      f"{why or ''}, p99 {statistics.quantiles(latencies, n=100)[98]:5.1f} s, "
                      f"server peak RSS {peak_rss_mib(process.pid):6.1f} MiB")
                if kind != "before":
                    failed, busy, quiet = idle_connections(port)
                    print(f"  {'':<9} 200 idle connections open: {failed} of 40 requests failed, {busy:.0f} req/s "
                          f"(without them {quiet:.0f} req/s, {quiet / max(busy, 1e-9):.1f}x faster); "
                          f"pipelined: {pipelined(port)} of 21 answered")
            finally:
                process.terminate()
                process.wait(10)
    print("  (targets: 0 lost; a bounded peak)")


if __name__ == "__main__":
    main()
