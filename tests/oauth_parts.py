"""The OAuth tests' real authorization server (oidc-provider under Node, tests/oauth_provider/) on a
loopback port, and the tokens a test signs itself with a key that server publishes."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import requests

ROOT = Path(__file__).resolve().parent.parent
PROVIDER_DIR = Path(__file__).resolve().parent / "oauth_provider"
SCOPE = "mcp:tools"


def node_binary() -> str | None:
    """Node 22 from the conformance suite's install when it is there (oidc-provider's supported
    runtime), else the system's node."""
    bundled = ROOT / ".ci" / "node" / "node_modules" / ".bin" / "node"
    return str(bundled) if bundled.exists() else shutil.which("node")


def provider_or_skip() -> str:
    """The node binary, or skip (fail under CI) when the provider's packages are not installed."""
    node = node_binary()
    if node is None or not (PROVIDER_DIR / "node_modules" / "oidc-provider").exists():
        message = "the test authorization server is not installed (make test installs it with npm)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return node


class AuthorizationServer:
    """A running oidc-provider: its issuer URL, tokens from it, and its test-only control routes."""

    def __init__(self, node: str) -> None:
        self.process = subprocess.Popen([node, str(PROVIDER_DIR / "server.mjs"), "0"], cwd=PROVIDER_DIR,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith("{"):
            self.process.kill()
            raise RuntimeError(f"the authorization server did not start: {line}{self.process.stderr.read()}")
        self.issuer: str = json.loads(line)["issuer"]
        self.output: list[str] = []  # what it prints later, read all along so that no pipe fills up
        for stream in (self.process.stdout, self.process.stderr):
            threading.Thread(target=lambda s=stream: self.output.extend(s), daemon=True).start()

    def close(self) -> None:
        """Stop the server (by its own pid) and wait for it."""
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def token(self, resource: str, client: str = "service", secret: str = "service-secret",
              scope: str | None = SCOPE) -> str:
        """An access token from the client-credentials grant, for a resource (RFC 8707)."""
        form = {"grant_type": "client_credentials", "resource": resource}
        if scope:
            form["scope"] = scope
        response = requests.post(f"{self.issuer}/token", data=form, auth=(client, secret), timeout=10)
        assert response.status_code == 200, response.text
        return str(response.json()["access_token"])

    def revoke(self, token: str, client: str, secret: str) -> None:
        """Revoke a token (RFC 7009)."""
        response = requests.post(f"{self.issuer}/token/revocation", data={"token": token}, auth=(client, secret),
                                 timeout=10)
        assert response.status_code == 200, response.text

    def rotate(self) -> str:
        """A new signing key at the issuer; returns its kid."""
        return str(requests.post(f"{self.issuer}/control/rotate", timeout=10).json()["kid"])

    def publish(self, private_jwk: dict[str, Any]) -> None:
        """Publish one more key in the issuer's key set (never the signing one)."""
        requests.post(f"{self.issuer}/control/keys", json=private_jwk, timeout=10).raise_for_status()

    def jwks_served(self) -> int:
        """How often the issuer has served its key set."""
        return int(requests.get(f"{self.issuer}/control/stats", timeout=10).json()["jwks_served"])

    def jwks(self) -> list[dict[str, Any]]:
        """The published keys (without counting the fetch as the server's)."""
        keys = requests.get(f"{self.issuer}/jwks", timeout=10).json()["keys"]
        return list(keys)


def b64(data: bytes) -> str:
    """base64url without padding."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def segments(token: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A JWT's header and claims, unverified (for assertions on what the issuer put there)."""
    header, payload, _ = token.split(".")
    pad = lambda s: s + "=" * (-len(s) % 4)  # noqa: E731
    return json.loads(base64.urlsafe_b64decode(pad(header))), json.loads(base64.urlsafe_b64decode(pad(payload)))


class SigningKey:
    """An RSA key of the test's own, published at the issuer, for tokens with claims the issuer would
    never sign (expired, another audience, ...): their refusal is then for that claim alone."""

    def __init__(self) -> None:
        from cryptography.hazmat.primitives.asymmetric import rsa

        self.kid = f"test-{uuid.uuid4()}"
        self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)

    def jwk(self) -> dict[str, Any]:
        """The private JWK (the issuer needs the private half to load it; it signs nothing with it)."""
        import jwt

        data = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.private))
        return {**data, "kid": self.kid, "alg": "RS256", "use": "sig"}

    def sign(self, claims: dict[str, Any], kid: str | None = None) -> str:
        """A JWT over these claims, RS256 with this key."""
        import jwt

        return jwt.encode(claims, self.private, algorithm="RS256", headers={"kid": kid or self.kid, "typ": "at+jwt"})


def claims(issuer: str, resource: str, **changes: Any) -> dict[str, Any]:
    """The claims of a valid access token for this resource, with changes (None removes a claim)."""
    now = int(time.time())
    base = {"iss": issuer, "aud": resource, "sub": "tester", "client_id": "service", "scope": SCOPE,
            "iat": now, "exp": now + 300, "jti": str(uuid.uuid4())}
    base.update(changes)
    return {k: v for k, v in base.items() if v is not None}
