"""Property: any JSON value for any parameter of any tool, through the stdio pipeline, HTTP /mcp and
the REST facade, gets an answer: never -32603, never HTTP 500, never a traceback on stderr.

Upstreams are a closed loopback port (searches fail at once, as they would offline), and page
fetches run on a network that resolves no name, so nothing leaves the machine."""

from __future__ import annotations

import contextlib
import io
import json
import threading

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import engine_urls
from tests.helpers import call, exchange
from websearch_mcp.assembly import Assembly
from websearch_mcp.config import Config
from websearch_mcp.errors import ToolError
from websearch_mcp.fetch.addresses import AddressGuard
from websearch_mcp.services import Services
from websearch_mcp.tools import built_in_specs
from websearch_mcp.transports.http.app import WebsearchApp
from websearch_mcp.transports.http.server import make_http_server

CONFIG = Config(**engine_urls("http://127.0.0.1:9"), backends="", store="memory", retries=0, timeout=2.0,
                call_timeout=5.0, tavily_api_key="fuzz", tavily_url="http://127.0.0.1:9")
TOOLS = {spec.name: spec for spec in built_in_specs(CONFIG)}


class NoNetwork(AddressGuard):
    """Resolves no host name: every page fetch fails as it would offline."""

    def lookup(self, host: str, port: int) -> list[tuple[int, str]]:
        raise ToolError(f"could not resolve {host} (no network in this test)")


def assembly() -> Assembly:
    return Assembly(CONFIG, services=Services(CONFIG, guard=NoNetwork()))


odd_text = st.one_of(
    st.text(st.characters(codec=None, exclude_categories=()), max_size=40),  # surrogates, controls, anything
    st.sampled_from(["NaN", "Infinity", "-0", "1e999", "", " ", "\u0000", "\ud800", "\udfff\ud800", "\u202e",
                     "http://", "https://[::1", "ftp://x", "http://127.0.0.1:9/a"]),
    st.text(max_size=1).map(lambda c: c * 20_000),  # huge
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
    | st.floats(allow_nan=False, allow_infinity=False) | odd_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(odd_text, inner, max_size=3),
    max_leaves=12,
)


@st.composite
def tool_calls(draw: st.DrawFn) -> tuple[str, dict]:
    name = draw(st.sampled_from(sorted(TOOLS)))
    properties = list(TOOLS[name].input_schema["properties"])
    arguments = {key: draw(json_values) for key in draw(st.lists(st.sampled_from(properties), unique=True))}
    if draw(st.booleans()):
        arguments[draw(odd_text)] = draw(json_values)  # an unknown (or oddly named) parameter
    return name, arguments


def assert_no_traceback(stderr: str) -> None:
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr[-3000:]


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(tool_calls())
def test_stdio_answers_any_arguments(case):
    name, arguments = case
    captured = io.StringIO()
    with contextlib.redirect_stderr(captured):
        [reply] = exchange([call(name, arguments)], registry=fuzz_registry())
    assert "result" in reply or reply["error"]["code"] not in (-32603,), reply
    assert_no_traceback(captured.getvalue())


_REGISTRY: list = []


def fuzz_registry():
    if not _REGISTRY:
        _REGISTRY.append(assembly().server.registry)
    return _REGISTRY[0]


@pytest.fixture(scope="module")
def http_base():
    server = make_http_server(CONFIG, "127.0.0.1", 0, app=WebsearchApp(assembly()))
    threading.Thread(target=server.serve, daemon=True).start()
    yield f"http://127.0.0.1:{server.address[1]}"
    server.close()


def post(url: str, payload: object) -> requests.Response:
    body = json.dumps(payload, ensure_ascii=True)  # lone surrogates travel as \\ud800 escapes
    return requests.post(url, data=body, headers={"Content-Type": "application/json",
                                                  "Accept": "application/json, text/event-stream"}, timeout=30)


@SETTINGS
@given(case=tool_calls())
def test_http_mcp_answers_any_arguments(http_base, case):
    name, arguments = case
    captured = io.StringIO()
    with contextlib.redirect_stderr(captured):
        response = post(f"{http_base}/mcp", call(name, arguments))
    assert response.status_code != 500, response.text
    reply = response.json()
    assert "result" in reply or reply["error"]["code"] != -32603, reply
    assert_no_traceback(captured.getvalue())


@SETTINGS
@given(case=tool_calls())
def test_rest_answers_any_arguments(http_base, case):
    name, arguments = case
    captured = io.StringIO()
    with contextlib.redirect_stderr(captured):
        response = post(f"{http_base}/tools/call", {"name": name, "parameters": arguments})
    assert response.status_code in (200, 400, 502), response.text
    assert response.json()["success"] is (response.status_code == 200)
    assert_no_traceback(captured.getvalue())


@pytest.mark.parametrize("value", ["\ud800", "ok \udfff", "\ud83d"])
def test_a_lone_surrogate_is_a_clear_argument_error(value):
    [reply] = exchange([call("web_search", {"query": value})], registry=fuzz_registry())
    text = reply["result"]["content"][0]["text"]
    assert reply["result"]["isError"] and text.startswith("Invalid argument 'query': is not valid Unicode text")
