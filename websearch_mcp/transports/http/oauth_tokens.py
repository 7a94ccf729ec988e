"""Access tokens checked as their issuer says: a JWT against the issuer's published keys, an opaque
token by introspection (RFC 7662). PyJWT (with cryptography) does the cryptography; this module is
imported only when OAuth is configured.

A JWT must carry the issuer's `iss`, this server's resource URI in `aud` (RFC 8707), and a current
`exp`/`nbf` (within a small skew); its `alg` must be an asymmetric one the issuer advertises, so
`none` and HS256 (whose "secret" could be the public key) never pass. Keys are cached; an unknown
`kid` fetches the key set again, at most once per REFETCH_SECONDS, so that a stream of made-up key
ids cannot turn this server into a load on the issuer.
"""

from __future__ import annotations

import base64
import hashlib
import threading
import time
from typing import Any
from urllib.parse import quote, urlsplit

import jwt

from websearch_mcp import log, wire
from websearch_mcp.config import Config, ConfigError
from websearch_mcp.errors import UpstreamError
from websearch_mcp.http_client import HttpClient

SKEW_SECONDS = 30  # clocks of the issuer and this server may differ by this much
REFETCH_SECONDS = 10.0  # an unknown kid fetches the key set again at most this often
KEYS_MAX_AGE = 3600.0  # keys are fetched again after this long even when every kid is known
CACHE_LIMIT = 10_000  # introspection answers kept at most
ASYMMETRIC = frozenset({"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA",
                        "Ed25519"}) & frozenset(jwt.algorithms.get_default_algorithms())
KEY_TYPES = {"RS": "RSA", "PS": "RSA", "ES": "EC", "Ed": "OKP"}


class TokenRefused(Exception):
    """The token is not one this server accepts; the message says why (and never holds the token)."""


class IssuerUnavailable(Exception):
    """The authorization server did not answer a request this check needs."""


def metadata_urls(issuer: str) -> list[str]:
    """Where the issuer's metadata may be: RFC 8414's path-inserted form, then OpenID Connect's two forms."""
    parts = urlsplit(issuer)
    origin, path = f"{parts.scheme}://{parts.netloc}", parts.path.rstrip("/")
    return list(dict.fromkeys([f"{origin}/.well-known/oauth-authorization-server{path}",
                               f"{origin}{path}/.well-known/openid-configuration",
                               f"{origin}/.well-known/openid-configuration{path}"]))


def fetch_json(client: HttpClient, url: str, **options: Any) -> tuple[int, Any]:
    """(status, decoded JSON body or None) of one request through the project's HTTP client, asked once and
    never redirected (a token in a form body must not follow a redirect); IssuerUnavailable if it fails."""
    method = "POST" if "data" in options else "GET"
    try:
        response = client.request(method, url, retries=0, follow_redirects=False, max_bytes=1024 * 1024,
                                  headers={"Accept": "application/json", **options.pop("headers", {})}, **options)
    except UpstreamError as err:
        raise IssuerUnavailable(err.message) from None
    try:
        return response.status, wire.loads(response.body.decode("utf-8"))
    except (wire.DecodeError, UnicodeDecodeError):
        return response.status, None


def _scopes(claims: dict[str, Any]) -> list[str]:
    """`scope` (RFC 9068, a space-separated string) or `scp` (a list or a string, as Entra ID and Okta write it)."""
    value = claims.get("scope", claims.get("scp", ""))
    return [str(s) for s in value] if isinstance(value, list) else str(value).split()


class KeySet:
    """The issuer's JSON Web Key Set, fetched again when old or when a token names an unknown kid."""

    def __init__(self, client: HttpClient, jwks_uri: str) -> None:
        self.client, self.jwks_uri = client, jwks_uri
        self.keys: list[dict[str, Any]] = []
        self.fetched_at = 0.0
        self.refetched_at = float("-inf")
        self.fetches = 0
        self._lock = threading.Lock()

    def load(self) -> None:
        """Fetch the key set (IssuerUnavailable when it cannot be had)."""
        status, document = fetch_json(self.client, self.jwks_uri)
        keys = document.get("keys") if isinstance(document, dict) else None
        if status != 200 or not isinstance(keys, list):
            raise IssuerUnavailable(f"{self.jwks_uri} answered HTTP {status} without a key set")
        self.keys = [k for k in keys if isinstance(k, dict) and k.get("use", "sig") == "sig"]
        self.fetched_at = time.monotonic()
        self.fetches += 1

    def algorithms(self) -> set[str]:
        """The algorithms the published keys name."""
        return {str(k["alg"]) for k in self.keys if "alg" in k}

    def find(self, kid: str | None, alg: str) -> jwt.PyJWK | None:
        """The published key for this kid and algorithm, fetching the set again if it is old or lacks the kid."""
        with self._lock:
            if time.monotonic() - self.fetched_at > KEYS_MAX_AGE:
                self._reload()
            match = self._match(kid, alg)
            if match is None and kid and time.monotonic() - self.refetched_at >= REFETCH_SECONDS:
                self.refetched_at = time.monotonic()
                self._reload()
                match = self._match(kid, alg)
        return jwt.PyJWK(match, algorithm=alg) if match is not None else None

    def _reload(self) -> None:
        try:
            self.load()
        except IssuerUnavailable as err:  # keep the keys held so far
            log.warning(f"oauth: could not fetch the issuer's keys again: {err}")

    def _match(self, kid: str | None, alg: str) -> dict[str, Any] | None:
        kty = KEY_TYPES.get(alg[:2])
        fitting = [k for k in self.keys if k.get("kty") == kty and k.get("alg", alg) == alg
                   and (kid is None or k.get("kid") == kid)]
        return fitting[0] if len(fitting) == 1 or (kid and fitting) else None


class Introspection:
    """RFC 7662 with this server's client credentials; answers are kept for a short while."""

    def __init__(self, client: HttpClient, endpoint: str, client_id: str, client_secret: str,
                 cache_seconds: float) -> None:
        self.client, self.endpoint = client, endpoint
        pair = f"{quote(client_id, safe='')}:{quote(client_secret, safe='')}"  # RFC 6749 2.3.1
        self.authorization = "Basic " + base64.b64encode(pair.encode()).decode()
        self.cache_seconds = cache_seconds
        self._cache: dict[str, tuple[float, dict[str, Any] | None]] = {}
        self._lock = threading.Lock()

    def ask(self, token: str) -> dict[str, Any] | None:
        """The introspection answer of an active token, or None for an inactive one."""
        key = hashlib.sha256(token.encode()).hexdigest()  # the cache never holds the token itself
        now = time.monotonic()
        with self._lock:
            held = self._cache.get(key)
        if held is not None and held[0] > now:
            return held[1]
        answer = self._post(token)
        until = now + self.cache_seconds
        if answer is not None and isinstance(answer.get("exp"), (int, float)):
            until = min(until, now + answer["exp"] - time.time())
        with self._lock:
            if len(self._cache) >= CACHE_LIMIT:
                self._cache = {k: v for k, v in self._cache.items() if v[0] > now}
                if len(self._cache) >= CACHE_LIMIT:
                    self._cache.clear()
            self._cache[key] = (until, answer)
        return answer

    def _post(self, token: str) -> dict[str, Any] | None:
        form = {"token": token, "token_type_hint": "access_token"}
        headers = {"Authorization": self.authorization}
        status, answer = fetch_json(self.client, self.endpoint, data=form, headers=headers)
        if status != 200 or not isinstance(answer, dict):
            raise IssuerUnavailable(f"the introspection endpoint answered HTTP {status}")
        return answer if answer.get("active") is True else None


class TokenValidator:
    """Checks bearer tokens for one issuer and one resource."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.issuer = config.oauth_issuer
        resource = config.oauth_resource
        self.audiences = list(dict.fromkeys([resource, resource.rstrip("/"), resource.rstrip("/") + "/"]))
        self.client = HttpClient(config)  # the issuer may sit on the LAN: the configured URLs are trusted
        self.advertised: set[str] = set()
        self.keys: KeySet | None = None
        self.introspection: Introspection | None = None

    def start(self) -> None:
        """Fetch the issuer's metadata and keys; a ConfigError says what is missing."""
        metadata = self._metadata()
        self.issuer = str(metadata["issuer"])  # as the issuer writes it: tokens carry this exact string
        self.advertised = {str(a) for a in metadata.get("id_token_signing_alg_values_supported") or []}
        if metadata.get("jwks_uri"):
            self.keys = KeySet(self.client, str(metadata["jwks_uri"]))
            try:
                self.keys.load()
            except IssuerUnavailable as err:
                raise ConfigError(f"WEBSEARCH_OAUTH_ISSUER: the issuer's keys could not be fetched ({err})") from None
        if self.config.oauth_client_id:
            endpoint = metadata.get("introspection_endpoint")
            if not endpoint:
                raise ConfigError("WEBSEARCH_OAUTH_CLIENT_ID is set for introspection, but the issuer's metadata names "
                                  "no introspection_endpoint")
            self.introspection = Introspection(self.client, str(endpoint), self.config.oauth_client_id,
                                               self.config.oauth_client_secret, self.config.oauth_introspection_cache)
        if self.keys is None and self.introspection is None:
            raise ConfigError("the issuer publishes no jwks_uri: set WEBSEARCH_OAUTH_CLIENT_ID and "
                              "WEBSEARCH_OAUTH_CLIENT_SECRET so that its tokens can be introspected")

    def _metadata(self) -> dict[str, Any]:
        problems = []
        for url in metadata_urls(self.issuer):
            try:
                status, document = fetch_json(self.client, url)
            except IssuerUnavailable as err:
                problems.append(str(err))
                continue
            if status != 200 or not isinstance(document, dict):
                problems.append(f"{url} answered HTTP {status}")
            elif str(document.get("issuer", "")).rstrip("/") != self.issuer.rstrip("/"):
                problems.append(f"{url} names the issuer {document.get('issuer')!r}")
            else:
                return document
        urls = metadata_urls(self.issuer)
        raise ConfigError(f"WEBSEARCH_OAUTH_ISSUER={self.issuer!r}: no authorization server metadata could be read "
                          f"at {', '.join(urls[:-1])} or {urls[-1]} ({'; '.join(dict.fromkeys(problems))})")

    def algorithms(self) -> set[str]:
        """The asymmetric algorithms the issuer advertises (all of them when it names none)."""
        named = (self.advertised | (self.keys.algorithms() if self.keys else set())) & ASYMMETRIC
        return named or set(ASYMMETRIC)

    def validate(self, token: str) -> dict[str, Any]:
        """The token's claims, with `scope` as a list; TokenRefused or IssuerUnavailable otherwise."""
        if token.count(".") == 2 and self.keys is not None:
            claims = self._jwt(token)
        elif self.introspection is not None:
            claims = self._introspected(token)
        else:
            raise TokenRefused("the token is not a JWT")
        return {**claims, "scope": _scopes(claims)}

    def _jwt(self, token: str) -> dict[str, Any]:
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError:
            raise TokenRefused("the token is malformed") from None
        alg = str(header.get("alg"))
        if alg not in self.algorithms():
            raise TokenRefused(f"the algorithm {alg} is not accepted")
        kid = header.get("kid")
        assert self.keys is not None
        key = self.keys.find(str(kid) if kid is not None else None, alg)
        if key is None:
            raise TokenRefused("the token is signed with a key the issuer does not publish")
        try:
            return dict(jwt.decode(token, key=key.key, algorithms=[alg], audience=self.audiences, issuer=self.issuer,
                                   leeway=SKEW_SECONDS, options={"require": ["exp", "iss", "aud"]}))
        except jwt.ExpiredSignatureError:
            raise TokenRefused("the token has expired") from None
        except jwt.ImmatureSignatureError:
            raise TokenRefused("the token is not valid yet") from None
        except jwt.InvalidAudienceError:
            raise TokenRefused("the token is meant for another resource") from None
        except jwt.InvalidIssuerError:
            raise TokenRefused("the token comes from another issuer") from None
        except jwt.InvalidSignatureError:
            raise TokenRefused("the token's signature does not verify") from None
        except jwt.MissingRequiredClaimError as err:
            raise TokenRefused(f"the token has no {err.claim} claim") from None
        except jwt.InvalidTokenError:
            raise TokenRefused("the token is malformed") from None

    def _introspected(self, token: str) -> dict[str, Any]:
        assert self.introspection is not None
        answer = self.introspection.ask(token)
        if answer is None:
            raise TokenRefused("the token is not active")
        if "iss" in answer and str(answer["iss"]).rstrip("/") != self.issuer.rstrip("/"):
            raise TokenRefused("the token comes from another issuer")
        audience = answer.get("aud")
        named = audience if isinstance(audience, list) else [audience]
        if not any(a in self.audiences for a in named):
            raise TokenRefused("the token is meant for another resource")
        return answer
