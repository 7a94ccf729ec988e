"""Builds the server in one place: configuration → services → tool registry → MCP server, plus the
backend MCP servers it aggregates when a servers file is configured. The stdio transport, the HTTP
app and the CLI all get their server here."""

from __future__ import annotations

from websearch_mcp.mcp import McpServer
from websearch_mcp.services import Services
from websearch_mcp.tools import build_registry

TYPE_CHECKING = False
if TYPE_CHECKING:
    from websearch_mcp.config import Config
    from websearch_mcp.proxy.manager import ProxyManager


class Assembly:
    """A server and what it owns: its services and, when aggregating, its backend servers."""

    def __init__(self, config: Config, aggregate: bool = True, services: Services | None = None) -> None:
        self.config = config
        self.services = services or Services(config)
        registry = build_registry(self.services)
        self.backends: ProxyManager | None = None
        if aggregate and config.servers_file:
            from websearch_mcp.proxy.manager import ProxyManager
            from websearch_mcp.proxy.servers_file import load_servers

            self.backends = ProxyManager(load_servers(config.servers_file), registry, config.backend_timeout)
        self.server = McpServer(registry, page_size=config.tools_page_size, list_changed=self.backends is not None,
                                lightweight=config.lightweight_list, result_budget=config.max_result_chars)

    def start(self) -> None:
        """Start the backend servers (each on its own thread; nothing waits for them)."""
        if self.backends is not None:
            self.backends.start()

    def close(self) -> None:
        """Close the backend servers and the services' connections."""
        if self.backends is not None:
            self.backends.close()
        self.services.close()
