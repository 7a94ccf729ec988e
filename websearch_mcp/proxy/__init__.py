"""Aggregation: backend MCP servers started as child processes, their tools offered as NAME.TOOL."""
