"""A cancelled call frees its worker at once, and end of input after one exits promptly (through the
installed command, as a client drives it)."""

from __future__ import annotations

import json
import subprocess
import time

from tests.conftest import client_environment, env_for, installed_command
from tests.fake_upstream import Reply
from tests.helpers import call, initialize

ARTICLE = "handmade/pages/article.html"


def send(process: subprocess.Popen, *messages: dict) -> None:
    assert process.stdin is not None
    process.stdin.write(b"".join((json.dumps(m) + "\n").encode() for m in messages))
    process.stdin.flush()


def cancel(request_id: int) -> dict:
    return {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}}


def start(upstream) -> subprocess.Popen:
    upstream.route("GET", "/hang", Reply.fixture(ARTICLE, delay=20))
    upstream.route("GET", "/quick", Reply.fixture(ARTICLE))
    upstream.route("POST", "/html/", Reply(delay=20))
    env = {**env_for(upstream), "WEBSEARCH_ALLOW_PRIVATE_URLS": "1"}
    process = subprocess.Popen([installed_command()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=client_environment(env))
    send(process, initialize(), {"jsonrpc": "2.0", "method": "notifications/initialized"})
    return process


def test_cancelled_calls_free_their_workers_for_the_next_call(upstream):
    process = start(upstream)
    slow = [call("fetch_content", {"urls": [f"{upstream.url}/hang?{n}"]}, id=n) for n in (1, 2)]
    slow += [call("web_search", {"query": f"rust {n}"}, id=n) for n in (3, 4)]
    send(process, *slow)
    while upstream.count("/hang") < 2 or upstream.count("/html/") < 2:
        time.sleep(0.05)
    send(process, *(cancel(n) for n in (1, 2, 3, 4)))
    sent = time.monotonic()
    send(process, call("fetch_content", {"urls": [f"{upstream.url}/quick"]}, id=5))
    assert process.stdout is not None
    for line in process.stdout:
        if json.loads(line).get("id") == 5:
            break
    waited = time.monotonic() - sent
    process.kill()
    process.wait()
    assert waited < 3.0  # it waited 14 s behind the four cancelled calls


def test_end_of_input_after_a_cancelled_call_exits_promptly(upstream):
    process = start(upstream)
    send(process, call("fetch_content", {"urls": [f"{upstream.url}/hang"]}, id=1))
    while upstream.count("/hang") == 0:
        time.sleep(0.05)
    send(process, cancel(1))
    assert process.stdin is not None
    process.stdin.close()
    started = time.monotonic()
    process.wait(30)
    assert time.monotonic() - started < 3.0 and process.returncode == 0
