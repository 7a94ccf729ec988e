"""Run inside a network namespace of the test's own (`unshare -rn`): the hand-made site on a
public-looking address (93.184.216.34 on the loopback interface) linking to private addresses
(127.0.0.1, 10.0.0.1, 169.254.169.254, also on loopback here, one of them through a redirect), to
another site (93.184.216.35), to disallowed paths and into a calendar trap; crawled and mapped by the
installed `websearch-mcp` with its default address rules. Prints what each server saw, as JSON."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fake_upstream import FIXTURES, FakeUpstream, Reply, Seen

SITE, OTHER = "93.184.216.34", "93.184.216.35"
PRIVATE = ("127.0.0.1", "10.0.0.1", "169.254.169.254")
HANDMADE = FIXTURES / "handmade" / "site"


def calendar_month(seen: Seen) -> Reply:
    """A month of the calendar trap, linking to the month before and the month after, for ever."""
    _, _, year, number = seen.path.rstrip("/").split("/")
    y, m = int(year), int(number)
    prev, nxt = (y - 1, 12) if m == 1 else (y, m - 1), (y + 1, 1) if m == 12 else (y, m + 1)
    body = (HANDMADE / "calendar.html").read_text().format(
        year=y, month=f"{m:02d}", prev_year=prev[0], prev_month=f"{prev[1]:02d}", next_year=nxt[0],
        next_month=f"{nxt[1]:02d}", n=int(seen.query.get("n", 0)) + 1)
    return Reply(body=body.encode())


def page(name: str, ports: dict[str, str]) -> bytes:
    """A hand-made page with the servers' ports in its links (they listen on ports of their own)."""
    text = (HANDMADE / f"{name}.html").read_text().replace("{port}", ports["127.0.0.1"])
    for address in ("10.0.0.1", "169.254.169.254"):
        text = text.replace(f"http://{address}/", f"http://{address}:{ports[address]}/")
    return text.replace("http://other-site.example/", f"http://{OTHER}:{ports[OTHER]}/").encode()


def main() -> None:
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    for address in (SITE, OTHER, *PRIVATE[1:]):
        subprocess.run(["ip", "addr", "add", f"{address}/32", "dev", "lo"], check=True)
    servers = {address: FakeUpstream(address).__enter__() for address in (SITE, OTHER, *PRIVATE)}
    ports = {address: server.url.rsplit(":", 1)[1] for address, server in servers.items()}
    site = servers[SITE]
    for name, path in (("start", "/"), ("retries", "/guide/retries/"), ("timeouts", "/guide/timeouts/")):
        site.route("GET", path, Reply(body=page(name, ports)))
    site.route("GET", "/robots.txt", Reply(body=(HANDMADE / "robots.txt").read_bytes(), content_type="text/plain"))
    site.route("GET", "/redirect-to-metadata", Reply(status=302, headers={
        "Location": f"http://169.254.169.254:{ports['169.254.169.254']}/latest/meta-data/"}))
    for y, m in itertools.product(range(1990, 2070), range(1, 13)):
        site.route("GET", f"/calendar/{y}/{m:02d}/", calendar_month)
    for address in (OTHER, *PRIVATE):
        for path in ("/secret/loopback", "/secret/loopback6", "/secret/private", "/secret/elsewhere",
                     "/latest/meta-data/", "/latest/user-data"):
            servers[address].route("GET", path, Reply(body=b"<p>internal data</p>"))
    start = f"{site.url}/"
    calls = [{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "crawl_site", "arguments": {
                 "url": start, "max_pages": 100, "max_depth": 100, "max_wait_seconds": 30}}},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "map_site", "arguments": {
                 "url": start, "limit": 1000}}}]
    env = {k: v for k, v in os.environ.items() if "PROXY" not in k.upper() and not k.startswith("WEBSEARCH_")}
    env.update({"WEBSEARCH_STORE": "memory"})
    done = subprocess.run([sys.argv[1]], input="".join(json.dumps(c) + "\n" for c in calls).encode(),
                          capture_output=True, env=env, timeout=120)
    answers = {m["id"]: m["result"] for m in map(json.loads, done.stdout.decode().splitlines())}
    print(json.dumps({
        "crawl": answers[1]["structuredContent"], "map": answers[2]["structuredContent"],
        "site_paths": [s.path + ("?" + "&".join(f"{k}={v}" for k, v in s.query.items()) if s.query else "")
                       for s in site.requests],
        "elsewhere": {address: len(servers[address].requests) for address in (OTHER, *PRIVATE)},
        "log": done.stderr.decode(errors="replace").splitlines()[-20:],
    }))
    for server in servers.values():
        server.__exit__(None, None, None)


if __name__ == "__main__":
    main()
