"""The HTTP server as an OAuth 2.1 resource server, against a real authorization server (oidc-provider
on loopback): protected-resource metadata, the 401/403 challenges, tokens from client credentials and
from the official SDK's authorization-code flow with PKCE, introspection, revocation and key rotation."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
import requests

from tests.conftest import config_for, env_for
from tests.oauth_parts import (
    SCOPE,
    AuthorizationServer,
    SigningKey,
    b64,
    claims,
    provider_or_skip,
    segments,
)
from tests.store_parts import free_port
from websearch_mcp.transports.http.server import make_http_server

ROOT = Path(__file__).resolve().parent.parent
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "oauth-test", "version": "1"}}}


@pytest.fixture(scope="module")
def issuer():
    """One authorization server for the module, with a key of the test's own published beside its own."""
    server = AuthorizationServer(provider_or_skip())
    server.key = SigningKey()
    server.publish(server.key.jwk())
    yield server
    server.close()


@pytest.fixture
def guarded(ddg, issuer):
    """Start this server with OAuth on a free port; returns (base URL, its app)."""
    started = []

    def start(**overrides):
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        settings = {"oauth_issuer": issuer.issuer, "oauth_resource": f"{base}/mcp", "oauth_scopes": SCOPE,
                    "oauth_client_id": "websearch", "oauth_client_secret": "websearch-secret", **overrides}
        server = make_http_server(config_for(ddg, **settings), "127.0.0.1", port)  # waitress, as users run it
        threading.Thread(target=server.serve, daemon=True).start()
        started.append(server)
        return base

    yield start
    for server in started:
        server.close()


def post_mcp(base, token=None, body=INITIALIZE):
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return requests.post(f"{base}/mcp", json=body, headers=headers, timeout=10)


def challenge(base, error=None, description=None):
    """The WWW-Authenticate header this server sends."""
    header = f'Bearer resource_metadata="{base}/.well-known/oauth-protected-resource/mcp", scope="{SCOPE}"'
    if error:
        header += f', error="{error}", error_description="{description}"'
    return header


# -- metadata and the challenge ------------------------------------------------------------------

def test_protected_resource_metadata_at_both_paths_without_a_token(guarded, issuer):
    base = guarded()
    for path in ("/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"):
        response = requests.get(base + path, timeout=5)
        assert response.status_code == 200
        assert response.json() == {"resource": f"{base}/mcp", "authorization_servers": [issuer.issuer],
                                   "scopes_supported": [SCOPE], "bearer_methods_supported": ["header"],
                                   "resource_name": "websearch-mcp"}
    assert requests.get(f"{base}/", timeout=5).status_code == 200  # the health check stays open


def test_no_token_is_challenged_on_mcp_and_the_rest_facade(guarded):
    base = guarded()
    answers = [post_mcp(base), requests.get(f"{base}/tools", timeout=5),
               requests.post(f"{base}/tools/call", json={"name": "web_search", "parameters": {"query": "x"}},
                             timeout=5),
               requests.post(f"{base}/mcp", json=INITIALIZE, headers={"Authorization": "Basic dXNlcjpwdw=="},
                             timeout=5)]
    for response in answers:
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"] == challenge(base)


def test_client_credentials_jwt_opens_mcp_and_the_rest_facade(guarded, issuer, ddg):
    base = guarded()
    token = issuer.token(f"{base}/mcp")
    header, claimed = segments(token)
    assert header["alg"] == "RS256" and claimed["aud"] == f"{base}/mcp" and claimed["iss"] == issuer.issuer
    assert post_mcp(base, token).json()["result"]["serverInfo"]["name"] == "websearch-mcp"
    auth = {"Authorization": f"Bearer {token}"}
    assert requests.get(f"{base}/tools", headers=auth, timeout=5).status_code == 200
    called = requests.post(f"{base}/tools/call", headers=auth, timeout=10,
                           json={"name": "web_search", "parameters": {"query": "rust programming language"}})
    assert called.status_code == 200 and called.json()["success"] is True
    seen = [r for r in ddg.requests if r.path.startswith("/html")]
    assert seen and all("authorization" not in {k.lower() for k in r.headers} for r in ddg.requests)
    assert all(token not in json.dumps(r.headers) for r in ddg.requests)  # no token passthrough


# -- refusals --------------------------------------------------------------------------------------

def _hs256_with_public_key(issuer, resource):
    """The classic key-confusion forgery: HMAC-SHA256 keyed with the issuer's public key in PEM."""
    import jwt
    from cryptography.hazmat.primitives import serialization

    published = next(k for k in issuer.jwks() if k["kid"] != issuer.key.kid)
    public = jwt.algorithms.RSAAlgorithm.from_jwk(json.dumps(published))
    pem = public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    signing_input = b64(json.dumps({"alg": "HS256", "typ": "at+jwt", "kid": published["kid"]}).encode()) + "." + \
        b64(json.dumps(claims(issuer.issuer, resource)).encode())
    return signing_input + "." + b64(hmac.new(pem, signing_input.encode(), hashlib.sha256).digest())


def _alg_none(issuer, resource):
    kid = issuer.jwks()[0]["kid"]
    return (b64(json.dumps({"alg": "none", "typ": "at+jwt", "kid": kid}).encode()) + "."
            + b64(json.dumps(claims(issuer.issuer, resource)).encode()) + ".")


def _bad_signature(issuer, resource):
    token = issuer.token(resource)
    head, body, signature = token.split(".")
    middle = len(signature) // 2
    flipped = "A" if signature[middle] != "A" else "B"
    return f"{head}.{body}.{signature[:middle]}{flipped}{signature[middle + 1:]}"


REFUSALS = {
    "malformed": (lambda issuer, resource: "abc.def.ghi", "the token is malformed"),
    "wrong audience (a real token for another resource)": (
        lambda issuer, resource: issuer.token("http://127.0.0.1:9/other-api"),
        "the token is meant for another resource"),
    "wrong issuer": (lambda issuer, resource: issuer.key.sign(claims("http://127.0.0.1:9", resource)),
                     "the token comes from another issuer"),
    "expired": (lambda issuer, resource: issuer.key.sign(claims(issuer.issuer, resource, exp=int(time.time()) - 120)),
                "the token has expired"),
    "not yet valid": (lambda issuer, resource: issuer.key.sign(
        claims(issuer.issuer, resource, nbf=int(time.time()) + 600)), "the token is not valid yet"),
    "without exp": (lambda issuer, resource: issuer.key.sign(claims(issuer.issuer, resource, exp=None)),
                    "the token has no exp claim"),
    "bad signature": (_bad_signature, "the token's signature does not verify"),
    "alg none": (_alg_none, "the algorithm none is not accepted"),
    "HS256 signed with the public key": (_hs256_with_public_key, "the algorithm HS256 is not accepted"),
    "signed by a key the issuer does not publish": (
        lambda issuer, resource: SigningKey().sign(claims(issuer.issuer, resource)),
        "the token is signed with a key the issuer does not publish"),
    "unknown opaque token": (lambda issuer, resource: "not-a-token-this-issuer-gave", "the token is not active"),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_refused_tokens_get_401_invalid_token(guarded, issuer, case):
    base = guarded()
    make, description = REFUSALS[case]
    token = make(issuer, f"{base}/mcp")
    for response in (post_mcp(base, token),
                     requests.get(f"{base}/tools", headers={"Authorization": f"Bearer {token}"}, timeout=5)):
        assert response.status_code == 401, response.text
        assert response.headers["WWW-Authenticate"] == challenge(base, "invalid_token", description)
        assert response.json() == {"error": "invalid_token", "error_description": description}


def test_a_token_the_test_signs_with_the_published_key_passes(guarded, issuer):
    """The control for the crafted refusals above: with every claim right, the test's key is accepted."""
    base = guarded()
    assert post_mcp(base, issuer.key.sign(claims(issuer.issuer, f"{base}/mcp"))).status_code == 200


def test_a_token_without_the_scope_gets_403_insufficient_scope(guarded, issuer):
    base = guarded()
    token = issuer.token(f"{base}/mcp", scope=None)
    assert "scope" not in segments(token)[1]
    response = post_mcp(base, token)
    assert response.status_code == 403
    assert response.headers["WWW-Authenticate"] == challenge(base, "insufficient_scope",
                                                             "the token lacks a required scope")
    assert requests.get(f"{base}/tools", headers={"Authorization": f"Bearer {token}"}, timeout=5).status_code == 403


def test_opaque_tokens_are_introspected_cached_briefly_and_refused_once_revoked(guarded, issuer):
    base = guarded(oauth_introspection_cache=1.0)
    token = issuer.token(f"{base}/mcp", client="opaque-service", secret="opaque-secret")
    assert token.count(".") == 0  # opaque, not a JWT
    assert post_mcp(base, token).status_code == 200
    issuer.revoke(token, "opaque-service", "opaque-secret")
    assert post_mcp(base, token).status_code == 200  # the introspection answer is still held
    time.sleep(1.2)
    response = post_mcp(base, token)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == challenge(base, "invalid_token", "the token is not active")
    fresh = issuer.token(f"{base}/mcp", client="opaque-service", secret="opaque-secret")
    issuer.revoke(fresh, "opaque-service", "opaque-secret")  # revoked before its first use: refused at once
    assert post_mcp(base, fresh).status_code == 401
    other = issuer.token("http://127.0.0.1:9/other-api", client="opaque-service", secret="opaque-secret")
    assert post_mcp(base, other).headers["WWW-Authenticate"] == challenge(
        base, "invalid_token", "the token is meant for another resource")


# -- keys ------------------------------------------------------------------------------------------

def test_key_rotation_at_the_issuer_is_followed_without_a_restart(guarded, issuer):
    base = guarded()
    before = issuer.token(f"{base}/mcp")
    assert post_mcp(base, before).status_code == 200
    served = issuer.jwks_served()
    new_kid = issuer.rotate()
    after = issuer.token(f"{base}/mcp")
    assert segments(after)[0]["kid"] == new_kid != segments(before)[0]["kid"]
    assert post_mcp(base, after).status_code == 200
    assert post_mcp(base, before).status_code == 200  # the old key is still published
    assert issuer.jwks_served() == served + 1  # fetched again once, for the unknown kid


def test_unknown_key_ids_fetch_the_key_set_at_most_once_per_interval(guarded, issuer):
    base = guarded()
    served = issuer.jwks_served()
    for _ in range(5):
        forged = issuer.key.sign(claims(issuer.issuer, f"{base}/mcp"), kid=f"made-up-{uuid.uuid4()}")
        assert post_mcp(base, forged).status_code == 401
    assert issuer.jwks_served() == served + 1


# -- the static token, logs, start-up ---------------------------------------------------------------

def test_the_static_token_still_works_beside_oauth(guarded, issuer):
    base = guarded(http_token="team-secret")
    assert post_mcp(base, "team-secret").status_code == 200
    assert post_mcp(base, issuer.token(f"{base}/mcp")).status_code == 200
    response = post_mcp(base, "team-secreT")
    assert response.status_code == 401 and 'error="invalid_token"' in response.headers["WWW-Authenticate"]


def test_tokens_never_reach_the_log(guarded, issuer, capfd):
    base = guarded(log_level="debug")
    tokens = [issuer.token(f"{base}/mcp"), _bad_signature(issuer, f"{base}/mcp"),
              issuer.token(f"{base}/mcp", client="opaque-service", secret="opaque-secret"), "abc.def.ghi"]
    for token in tokens:
        post_mcp(base, token)
    logged = capfd.readouterr().err
    assert "oauth: refused a token" in logged  # the debug lines are there ...
    assert not any(token in logged or token.split(".")[-1] in logged for token in tokens[:3])  # ... without tokens


def _serve_http(env_changes):
    env = {**os.environ, **env_changes}
    return subprocess.run([sys.executable, "-m", "websearch_mcp", "--http", "127.0.0.1:0"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("settings, message", [
    ({"WEBSEARCH_OAUTH_ISSUER": "http://127.0.0.1:{closed}", "WEBSEARCH_OAUTH_RESOURCE": "http://127.0.0.1:8000/mcp"},
     "no authorization server metadata could be read"),
    ({"WEBSEARCH_OAUTH_ISSUER": "{localhost_issuer}", "WEBSEARCH_OAUTH_RESOURCE": "http://127.0.0.1:8000/mcp"},
     "/.well-known/oauth-authorization-server names the issuer 'http://127.0.0.1:"),
    ({"WEBSEARCH_OAUTH_ISSUER": "{issuer}", "WEBSEARCH_OAUTH_RESOURCE": "http://websearch.example.com/mcp"},
     "must be https:// (plain http is accepted on loopback only)"),
    ({"WEBSEARCH_OAUTH_ISSUER": "{issuer}"}, "WEBSEARCH_OAUTH_ISSUER and WEBSEARCH_OAUTH_RESOURCE go together"),
    ({"WEBSEARCH_OAUTH_ISSUER": "{issuer}", "WEBSEARCH_OAUTH_RESOURCE": "http://127.0.0.1:8000/mcp",
      "WEBSEARCH_OAUTH_CLIENT_ID": "websearch"},
     "WEBSEARCH_OAUTH_CLIENT_ID and WEBSEARCH_OAUTH_CLIENT_SECRET go together"),
])
def test_a_bad_oauth_configuration_stops_the_start_with_status_2(issuer, settings, message):
    other_name = issuer.issuer.replace("127.0.0.1", "localhost")  # the same server, not the issuer it names
    env = {k: v.format(closed=free_port(), issuer=issuer.issuer, localhost_issuer=other_name)
           for k, v in settings.items()}
    process = _serve_http(env)
    assert process.returncode == 2, process.stderr
    assert message in process.stderr


def test_the_stdio_path_imports_nothing_of_oauth(ddg, issuer):
    """With the OAuth settings in the environment, serving stdio still loads no JOSE library."""
    code = ("import sys, io\n"
            "from websearch_mcp.config import load_config\n"
            "from websearch_mcp.cli import run_stdio\n"
            "sys.stdin = io.TextIOWrapper(io.BytesIO(b'" + json.dumps(INITIALIZE) + "\\n'))\n"
            "run_stdio(load_config())\n"
            "print('LOADED', [m for m in ('jwt', 'cryptography', 'websearch_mcp.transports.http.oauth_tokens') "
            "if m in sys.modules], file=sys.stderr)\n")
    env = {**os.environ, **env_for(ddg), "WEBSEARCH_OAUTH_ISSUER": issuer.issuer,
           "WEBSEARCH_OAUTH_RESOURCE": "http://127.0.0.1:8000/mcp"}
    process = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, timeout=30)
    assert b"LOADED []" in process.stderr, process.stderr.decode()
    assert b'"serverInfo"' in process.stdout


# -- the official SDK's client: discovery, registration, authorization code with PKCE -------------------

REDIRECT_URI = "http://127.0.0.1:9/callback"  # never connected to: the test reads the code from the redirect


class _Storage:
    """The SDK's token storage, in memory."""

    def __init__(self):
        self.tokens = None
        self.client_info = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info):
        self.client_info = client_info


def _follow_to_callback(url):
    """What a browser does: follow the authorization server's redirects (its login and consent
    complete on their own) until one points at the client's redirect URI; returns its parameters."""
    from urllib.parse import parse_qs, urljoin, urlsplit

    browser = requests.Session()
    response = browser.get(url, allow_redirects=False, timeout=10)
    for _ in range(10):
        assert response.status_code in (302, 303), response.text
        target = urljoin(response.url, response.headers["Location"])
        if target.startswith(REDIRECT_URI):
            return {k: v[0] for k, v in parse_qs(urlsplit(target).query).items()}
        response = browser.get(target, allow_redirects=False, timeout=10)
    raise AssertionError("the authorization server never redirected to the client")


async def _sdk_session(base, mode):
    from mcp import Client
    from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
    from mcp.shared.auth import OAuthClientMetadata

    storage, redirected = _Storage(), {}

    async def redirect_handler(url):
        redirected["url"] = url
        redirected["params"] = _follow_to_callback(url)

    async def callback_handler():
        params = redirected["params"]
        return AuthorizationCodeResult(code=params["code"], state=params.get("state"), iss=params.get("iss"))

    metadata = OAuthClientMetadata(client_name="websearch-mcp test client", redirect_uris=[REDIRECT_URI],
                                   grant_types=["authorization_code", "refresh_token"], response_types=["code"],
                                   token_endpoint_auth_method="none")
    auth = OAuthClientProvider(f"{base}/mcp", metadata, storage, redirect_handler, callback_handler)
    async with create_mcp_http_client(auth=auth) as http, \
            Client(streamable_http_client(f"{base}/mcp", http_client=http), mode=mode) as client:
        tools = await client.list_tools()
        result = await client.call_tool("web_search", {"query": "rust programming language", "max_results": 2})
    return [t.name for t in tools.tools], result, storage, redirected["url"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_the_sdk_client_registers_and_completes_the_pkce_flow(guarded, issuer, mode):
    from urllib.parse import parse_qs, urlsplit

    import anyio

    base = guarded()
    names, result, storage, authorization_url = anyio.run(_sdk_session, base, mode)
    assert names[:2] == ["web_search", "instant_answer"]
    assert result.structured_content["metadata"]["results_count"] == 2
    asked = parse_qs(urlsplit(authorization_url).query)
    assert asked["code_challenge_method"] == ["S256"] and asked["resource"] == [f"{base}/mcp"]
    assert SCOPE in asked["scope"][0].split()  # read from the challenge's scope
    assert storage.client_info.client_id  # registered dynamically
    header, claimed = segments(storage.tokens.access_token)
    assert claimed["aud"] == f"{base}/mcp" and claimed["iss"] == issuer.issuer and claimed["sub"] == "tester"
    assert SCOPE in claimed["scope"].split() and header["alg"] == "RS256"


def test_while_the_issuer_is_down_cached_keys_still_verify_and_introspection_answers_503(ddg, guarded):
    own = AuthorizationServer(provider_or_skip())
    try:
        base = guarded(oauth_issuer=own.issuer)
        jwt_token = own.token(f"{base}/mcp")
        opaque = own.token(f"{base}/mcp", client="opaque-service", secret="opaque-secret")
    finally:
        own.close()
    assert post_mcp(base, jwt_token).status_code == 200  # its key was fetched at start-up
    response = post_mcp(base, opaque)
    assert response.status_code == 503 and response.headers["Retry-After"] == "5"
    assert response.json() == {"error": "the authorization server could not be reached"}


@pytest.mark.parametrize("how", ["websearch-mcp --http", "gunicorn"])
def test_configured_from_the_environment_under_the_cli_and_gunicorn(ddg, issuer, how):
    import shutil

    from tests.helpers import wait_for_http

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, **env_for(ddg), "WEBSEARCH_OAUTH_ISSUER": issuer.issuer,
           "WEBSEARCH_OAUTH_RESOURCE": f"{base}/mcp", "WEBSEARCH_OAUTH_SCOPES": SCOPE}
    if how == "gunicorn":
        gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent))
        assert gunicorn, "gunicorn is a test dependency"
        command = [gunicorn, "-w", "2", "-b", f"127.0.0.1:{port}", "websearch_mcp.wsgi:app"]
    else:
        command = [sys.executable, "-m", "websearch_mcp", "--http", f"127.0.0.1:{port}"]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_http(port)
        metadata = requests.get(f"{base}/.well-known/oauth-protected-resource/mcp", timeout=10).json()
        assert metadata["resource"] == f"{base}/mcp" and metadata["authorization_servers"] == [issuer.issuer]
        assert post_mcp(base).headers["WWW-Authenticate"] == challenge(base)
        assert post_mcp(base, issuer.token(f"{base}/mcp")).status_code == 200
    finally:
        process.terminate()
        process.wait(10)
