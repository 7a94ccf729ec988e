"""Run inside a network namespace of the test's own (`unshare -rn`): the hand-made hostile pages of
fixtures/handmade/browser/ on a public-looking address (93.184.216.34), read by the installed
`websearch-mcp` with its default address rules and render=always. Two pages send the browser to the
metadata address 169.254.169.254 (http and https); one knocks on ports 6379 and 11211 of another
public-looking address (93.184.216.35). Listeners on those addresses count every connection. Prints,
as JSON, the pages read, the failures, the connections each listener saw, and the server's log."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fake_upstream import FakeUpstream, Reply

PUBLIC, OTHER_PUBLIC, METADATA = "93.184.216.34", "93.184.216.35", "169.254.169.254"
PAGES = ("to-metadata.html", "to-metadata-tls.html", "probe-ports.html")
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "handmade" / "browser"


class Listener:
    """Accepts TCP connections on one address and port, counts them, answers a little HTTP."""

    def __init__(self, host: str, port: int) -> None:
        self.connections = 0
        self._socket = socket.create_server((host, port))
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            client, _ = self._socket.accept()
            self.connections += 1
            with client:
                client.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\ninternal data")


def main() -> None:
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    for address in (PUBLIC, OTHER_PUBLIC, METADATA):
        subprocess.run(["ip", "addr", "add", f"{address}/32", "dev", "lo"], check=True)
    listeners = {f"{host}:{port}": Listener(host, port)
                 for host, port in ((METADATA, 80), (METADATA, 443), (OTHER_PUBLIC, 6379), (OTHER_PUBLIC, 11211))}
    with FakeUpstream(PUBLIC) as pages:
        for name in PAGES:
            pages.route("GET", f"/{name}", Reply(body=(FIXTURES / name).read_bytes()))
        # one call per page: each answer waits for its page to be read or to fail (in one call of three, a
        # page still loading when the other two are in gets a grace period only, short on a loaded machine)
        requests = [{"jsonrpc": "2.0", "id": index, "method": "tools/call", "params": {
            "name": "fetch_content", "arguments": {"urls": [f"{pages.url}/{name}"], "render": "always"}}}
            for index, name in enumerate(PAGES)]
        env = {k: v for k, v in os.environ.items() if "PROXY" not in k.upper() and not k.startswith("WEBSEARCH_")}
        env.update({"WEBSEARCH_STORE": "memory", "WEBSEARCH_RENDER_TIMEOUT": "4"})
        done = subprocess.run([sys.argv[1]], input="".join(json.dumps(r) + "\n" for r in requests).encode(),
                              capture_output=True, env=env, timeout=90)
    answers = sorted((json.loads(line) for line in done.stdout.decode().splitlines()), key=lambda a: a["id"])
    results = [answer["result"]["structuredContent"] for answer in answers]
    print(json.dumps({
        "result": {"structuredContent": {part: [entry for result in results for entry in result.get(part, [])]
                                         for part in ("pages", "failed")}},
        "connections": {name: listener.connections for name, listener in listeners.items()},
        "log": done.stderr.decode(errors="replace").splitlines(),
    }))


if __name__ == "__main__":
    main()
