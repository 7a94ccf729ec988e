"""All backend servers of a servers file: started in parallel, closed together."""

from __future__ import annotations

from websearch_mcp import log
from websearch_mcp.proxy.servers_file import BackendSpec
from websearch_mcp.proxy.supervisor import BackendSupervisor
from websearch_mcp.tools.registry import Registry


class ProxyManager:
    """Starts every enabled backend without waiting for any; `close` ends them all."""

    def __init__(self, specs: list[BackendSpec], registry: Registry, call_timeout: float) -> None:
        self.supervisors = [BackendSupervisor(spec, registry, call_timeout) for spec in specs if spec.enabled]
        running = {s.spec.name: s.ready.is_set for s in self.supervisors}
        for spec in specs:  # NAME.tool of a server that is not running answers -32000, not "not found"
            registry.declare_group(f"{spec.name}.", spec.name, running.get(spec.name, lambda: False),
                                   disabled=not spec.enabled)
        log.info(f"aggregating {len(self.supervisors)} backend server(s)")

    def start(self) -> None:
        """Start all backends in parallel (each on its own thread)."""
        for supervisor in self.supervisors:
            supervisor.start()

    def close(self) -> None:
        """Close every child at once (stdin, then SIGTERM, then SIGKILL, each to its whole process
        group): none is left behind, and the slowest sets the time it takes, not their sum."""
        import threading

        for supervisor in self.supervisors:
            supervisor.stopping.set()
        closing = [threading.Thread(target=supervisor.stop, name=f"close-{supervisor.spec.name}")
                   for supervisor in self.supervisors]
        for thread in closing:
            thread.start()
        for thread in closing:
            thread.join()
