"""Run inside a network namespace of the test's own (`unshare -rn`): a page on a public-looking
address (93.184.216.34 on the loopback interface) whose scripts reach for private addresses
(127.0.0.1, 10.0.0.1, 169.254.169.254, also on loopback here), read by the installed `websearch-mcp`
with its default address rules and render=always. Prints what each server saw, as JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fake_upstream import FakeUpstream, Reply

PUBLIC = "93.184.216.34"
PRIVATE = ("127.0.0.1", "10.0.0.1", "169.254.169.254")


def main() -> None:
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    for address in (PUBLIC, *PRIVATE[1:]):
        subprocess.run(["ip", "addr", "add", f"{address}/32", "dev", "lo"], check=True)
    servers = {address: FakeUpstream(address).__enter__() for address in (PUBLIC, *PRIVATE)}
    for server in servers.values():
        server.route("GET", "/secret", Reply(body=b"internal data"))
    targets = [f"{servers[a].url}/secret" for a in PRIVATE]
    script = "".join(f"fetch({json.dumps(t)}).catch(function(){{}});" for t in targets)
    tags = "".join(f'<img src="{t}?img"><iframe src="{t}?frame"></iframe>' for t in targets)
    ws = servers["127.0.0.1"].url.replace("http://", "ws://") + "/secret"
    page = (f"<html><head><title>Public page</title></head><body><div id='root'></div>{tags}<script>{script}"
            f"try {{ new WebSocket({json.dumps(ws)}); }} catch (e) {{}}"
            "document.getElementById('root').innerHTML = '<p>" + "This public page reaches for private addresses. " * 6
            + "</p>';</script></body></html>").encode()
    servers[PUBLIC].route("GET", "/page", Reply(body=page))
    url = f"{servers[PUBLIC].url}/page"
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "fetch_content", "arguments": {"urls": [url], "render": "always"}}}
    env = {k: v for k, v in os.environ.items() if "PROXY" not in k.upper() and not k.startswith("WEBSEARCH_")}
    env.update({"WEBSEARCH_STORE": "memory", "WEBSEARCH_RENDER_TIMEOUT": "4"})
    done = subprocess.run([sys.argv[1]], input=(json.dumps(request) + "\n").encode(), capture_output=True,
                          env=env, timeout=90)
    answer = json.loads(done.stdout.decode().splitlines()[0])
    print(json.dumps({
        "pages": answer["result"]["structuredContent"]["pages"],
        "failed": answer["result"]["structuredContent"]["failed"],
        "page_requests": servers[PUBLIC].count("/page"),
        "secret_requests": {address: servers[address].count("/secret") for address in PRIVATE},
        "log": done.stderr.decode(errors="replace").splitlines(),
    }))
    for server in servers.values():
        server.__exit__(None, None, None)


if __name__ == "__main__":
    main()
