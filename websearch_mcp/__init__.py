"""websearch-mcp: an MCP server that gives language models web search and page content."""

__version__ = "0.1.0"
