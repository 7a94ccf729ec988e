"""The HTTP server against DNS rebinding (the Host header), for browser pages on allowed origins
(CORS preflights and headers), and with bodies shorter than they said."""

from __future__ import annotations

import socket
import threading

import pytest
import requests

from tests.conftest import config_for
from websearch_mcp.transports.http.server import make_http_server

ACCEPT = "application/json, text/event-stream"
INIT = {"jsonrpc": "2.0", "id": 1, "method": "ping"}


@pytest.fixture
def start(upstream):
    servers = []

    def run(engine="waitress", **overrides):
        server = make_http_server(config_for(upstream, **overrides), "127.0.0.1", 0, engine=engine)
        threading.Thread(target=server.serve, daemon=True).start()
        servers.append(server)
        return server.address[1]

    yield run
    for server in servers:
        server.close()


def test_a_rebound_host_name_is_refused(start):
    port = start()
    response = requests.get(f"http://127.0.0.1:{port}/tools", headers={"Host": f"attacker.example:{port}"},
                            timeout=5)
    assert response.status_code == 421 and "WEBSEARCH_HTTP_ALLOWED_HOSTS" in response.json()["error"]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost"):
        assert requests.get(f"http://127.0.0.1:{port}/tools", headers={"Host": host}, timeout=5).status_code == 200


def test_configured_hosts_are_served(start):
    port = start(http_allowed_hosts="mcp.internal.example, other.example")
    ok = requests.get(f"http://127.0.0.1:{port}/tools", headers={"Host": f"mcp.internal.example:{port}"}, timeout=5)
    assert ok.status_code == 200
    refused = requests.get(f"http://127.0.0.1:{port}/tools", headers={"Host": "third.example"}, timeout=5)
    assert refused.status_code == 421


def test_with_a_token_any_host_may_ask_but_needs_the_token(start):
    port = start(http_token="s3cret")
    url = f"http://127.0.0.1:{port}/tools"
    assert requests.get(url, headers={"Host": "box.lan"}, timeout=5).status_code == 401
    with_token = {"Host": "box.lan", "Authorization": "Bearer s3cret"}
    assert requests.get(url, headers=with_token, timeout=5).status_code == 200


def test_a_preflight_from_an_allowed_origin_is_answered(start):
    port = start(http_token="s3cret", http_allowed_origins="https://app.example")
    response = requests.options(f"http://127.0.0.1:{port}/mcp", timeout=5, headers={
        "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version, mcp-method"})
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == "https://app.example"
    allowed = response.headers["Access-Control-Allow-Headers"].lower()
    for header in ("authorization", "content-type", "mcp-protocol-version", "mcp-method", "mcp-session-id"):
        assert header in allowed
    assert "POST" in response.headers["Access-Control-Allow-Methods"]


def test_the_answer_to_an_allowed_origin_carries_cors_headers(start):
    port = start(http_allowed_origins="https://app.example")
    response = requests.post(f"http://127.0.0.1:{port}/mcp", json=INIT, timeout=5, headers={
        "Origin": "https://app.example", "Accept": ACCEPT, "MCP-Protocol-Version": "2025-11-25"})
    assert response.status_code == 200 and response.headers["Access-Control-Allow-Origin"] == "https://app.example"
    assert "Mcp-Session-Id" in response.headers["Access-Control-Expose-Headers"]


def test_a_preflight_from_another_origin_is_refused(start):
    port = start(http_allowed_origins="https://app.example")
    response = requests.options(f"http://127.0.0.1:{port}/mcp", timeout=5, headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert response.status_code == 403 and "Access-Control-Allow-Origin" not in response.headers


@pytest.mark.parametrize("engine", ["stdlib", "waitress"])
def test_a_body_shorter_than_its_length_gets_400(start, engine):
    port = start(engine=engine, http_timeout=3.0)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       b"Accept: " + ACCEPT.encode() + b"\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":")
        client.shutdown(socket.SHUT_WR)  # the client half-closes with 89 bytes missing
        answer = b""
        while chunk := client.recv(4096):
            answer += chunk
    if engine == "waitress":  # waitress itself drops a request whose body never completes
        assert b"500" not in answer.split(b"\r\n", 1)[0]
    else:
        assert answer.startswith(b"HTTP/1.0 400") and b"shorter than its Content-Length" in answer


def test_http_without_waitress_names_the_extra(upstream, monkeypatch):
    from websearch_mcp.config import ConfigError
    from websearch_mcp.transports.http import server

    monkeypatch.setattr(server, "waitress_installed", lambda: False)
    with pytest.raises(ConfigError, match=r"-m pip install 'waitress>=3.0'"):
        server.make_http_server(config_for(upstream), "127.0.0.1", 0)
    stdlib = server.make_http_server(config_for(upstream, http_server="stdlib"), "127.0.0.1", 0)
    threading.Thread(target=stdlib.serve, daemon=True).start()
    assert stdlib.kind == "stdlib" and requests.get(f"http://127.0.0.1:{stdlib.address[1]}/", timeout=5).ok
    stdlib.close()
