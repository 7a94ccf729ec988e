"""Pages built to make a reader work quadratically or answer hugely (hand-made, in
fixtures/handmade/hostile/): each is read in time linear in its size, its answer obeys its budget,
and the protocol loop keeps answering while it is read."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import client_environment, config_for, env_for, installed_command
from tests.fake_upstream import Reply
from tests.helpers import call, exchange, initialize, registry_for, request

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fixtures" / "handmade" / "hostile"))
from hostile_pages import pages

PAGES = pages()


def serve(upstream) -> None:
    for name, data in PAGES.items():
        upstream.route("GET", f"/{name}", Reply(body=data))


def read(upstream, name: str, **arguments) -> tuple[float, dict]:
    serve(upstream)
    config = config_for(upstream, allow_private_urls=True)
    started = time.process_time()
    replies = exchange([call("fetch_content", {"urls": [f"{upstream.url}/{name}"], **arguments})],
                       registry=registry_for(config))
    return time.process_time() - started, next(r for r in replies if r.get("id") == 1)["result"]


@pytest.mark.parametrize("name", ["heading-hash-run.html", "heading-space-run.html", "heading-link-run.html",
                                  "deep-nesting.html", "long-title-headings.html"])
@pytest.mark.parametrize("mode", [{"outline": True}, {"query": "answer in time"}, {}])
def test_a_hostile_heading_costs_what_its_length_costs(upstream, name, mode):
    cpu, result = read(upstream, name, **mode)
    assert cpu < 2.0  # 9.9 s for a 64 KB heading with outline, 45.6 s for 96 KB with query, before
    assert not result.get("isError")


def test_a_quarter_megabyte_of_link_syntax_is_read_in_linear_time(upstream):
    # every "](" of a run never closed started a search for its ")" to the end of the text: 9.4 s at this size
    upstream.route("GET", "/link-run-4", Reply(body=pages(scale=4)["heading-link-run.html"]))
    config = config_for(upstream, allow_private_urls=True)
    started = time.process_time()
    replies = exchange([call("fetch_content", {"urls": [f"{upstream.url}/link-run-4"]})], registry=registry_for(config))
    assert time.process_time() - started < 2.0
    assert not next(r for r in replies if r.get("id") == 1)["result"].get("isError")


def test_a_hundred_thousand_headings_give_an_outline_within_max_chars(upstream):
    cpu, result = read(upstream, "many-headings.html", outline=True, max_chars=20_000)
    page = result["structuredContent"]["pages"][0]
    text = result["content"][0]["text"]
    assert len(text) < 25_000 and 0 < len(page["outline"]) < 1000  # 6.45 M characters before
    assert "more sections" in text
    assert cpu < 15.0  # 62.6 s for 160k headings before (quadratic); linear now


def test_query_answers_count_heading_text_against_max_chars(upstream):
    _, result = read(upstream, "heading-hash-run.html", query="start end answer", max_chars=2000)
    passages = result["structuredContent"]["pages"][0]["passages"]
    assert sum(len(p["text"]) + sum(len(t) for t in p["heading_path"]) for p in passages) <= 2000


def test_the_protocol_loop_answers_while_a_hostile_page_is_read(upstream):
    upstream.route("GET", "/hash-run", Reply(body=pages(scale=3)["heading-hash-run.html"]))
    env = {**env_for(upstream), "WEBSEARCH_ALLOW_PRIVATE_URLS": "1"}
    process = subprocess.Popen([installed_command()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=client_environment(env))
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"".join((json.dumps(m) + "\n").encode() for m in (
        initialize(), call("fetch_content", {"urls": [f"{upstream.url}/hash-run"], "query": "start end"}, id=1))))
    process.stdin.flush()
    time.sleep(0.3)  # the page is being read and ranked (a regex that backtracked held the interpreter 45 s)
    sent = time.monotonic()
    process.stdin.write((json.dumps(request("ping", id=2)) + "\n").encode())
    process.stdin.flush()
    answered: dict[int, float] = {}
    for line in process.stdout:
        message = json.loads(line)
        if message.get("id") in (1, 2):
            answered[message["id"]] = time.monotonic() - sent
        if len(answered) == 2:
            break
    process.stdin.close()
    process.wait(30)
    assert answered[2] < 1.0
