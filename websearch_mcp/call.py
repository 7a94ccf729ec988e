"""`websearch-mcp call` and `websearch-mcp tools`: the tools from a shell, without a client.

The Markdown of a success goes to stdout; errors, hints and progress go to stderr (with --json the
whole result goes to stdout, errors included, and the exit code tells them apart).
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from websearch_mcp.assembly import Assembly
from websearch_mcp.call_context import ToolContext
from websearch_mcp.config import Config
from websearch_mcp.errors import InvalidArguments
from websearch_mcp.jsonrpc import JsonRpcError
from websearch_mcp.tools import built_in_specs

EXIT_TOOL_ERROR = 1
EXIT_USAGE = 2


class UsageError(ValueError):
    """A command line the tools cannot be called with; the message says how to write it."""


def _coerce(raw: str, schema: dict[str, Any]) -> Any:
    """A shell word as the type the schema wants: strings stay strings, a single value for an array
    becomes a one-item list, the rest is read as JSON."""
    kind = schema.get("type")
    if kind == "string":
        return raw
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw  # left for validation to explain
    if kind == "array" and not isinstance(value, list):
        return [value]
    return value


def _clean(word: str) -> str:
    """A command-line word as valid Unicode: bytes that were not UTF-8 become U+FFFD."""
    return word.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def parse_arguments(words: list[str], input_schema: dict[str, Any]) -> dict[str, Any]:
    """Turn NAME=VALUE words into a tool's arguments; UsageError with a suggestion otherwise."""
    properties = input_schema.get("properties", {})
    required = list(input_schema.get("required", []))
    arguments: dict[str, Any] = {}
    for word in map(_clean, words):
        name, sep, value = word.partition("=")
        if not sep:
            hint = f" (did you mean {required[0]}={json.dumps(word) if ' ' in word else word}?)" if required else ""
            raise UsageError(f"argument {word!r} is not NAME=VALUE{hint}")
        schema = properties.get(name, {})
        coerced = _coerce(value, schema)
        if name in arguments and schema.get("type") == "array" and isinstance(arguments[name], list):
            arguments[name] = [*arguments[name], *(coerced if isinstance(coerced, list) else [coerced])]
        else:
            arguments[name] = coerced  # a repeated list argument adds to the list; anything else is replaced
    return arguments


class ProgressPrinter:
    """Progress notifications on stderr: a bar that redraws itself on a terminal, plain lines otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self.drawn = False

    def __call__(self, method: str, params: dict[str, Any]) -> None:
        progress, total = params.get("progress", 0), params.get("total")
        message = params.get("message") or ""
        if self.live and total:
            filled = int(20 * min(1.0, progress / total))
            self.stream.write(f"\r[{'#' * filled}{'.' * (20 - filled)}] {message}\x1b[K")
            self.drawn = True
        else:
            self.stream.write(f"progress: {message or progress}\n")
        self.stream.flush()

    def finish(self) -> None:
        """End the bar's line."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


def call_tool(config: Config, tool_name: str, words: list[str], as_json: bool = False) -> int:
    """Run one tool and print its text (or its result as JSON); 1 when the tool reports an error."""
    specs = {spec.name: spec for spec in built_in_specs(config)}
    if not tool_name:
        print("websearch-mcp: call needs a tool name and its arguments, e.g. websearch-mcp call web_search "
              f"query=\"rust async\" (tools: {', '.join(specs)}; websearch-mcp call --help shows more)",
              file=sys.stderr)
        return EXIT_USAGE
    spec = specs.get(tool_name)
    if spec is None:
        print(f"websearch-mcp: Tool not found: {tool_name} (available: {', '.join(specs)})", file=sys.stderr)
        return EXIT_USAGE
    try:
        arguments = parse_arguments(words, spec.input_schema)
    except UsageError as err:
        print(f"websearch-mcp: {err}", file=sys.stderr)
        return EXIT_USAGE
    assembly = Assembly(config, aggregate=False)
    progress = ProgressPrinter(sys.stderr)
    context = ToolContext(request_id=1, send_notification=progress, deadline_seconds=config.call_timeout)
    context.progress_token = 1
    try:
        result = assembly.server.run_tool(tool_name, arguments, context)
    except JsonRpcError as err:
        print(f"websearch-mcp: {err.message}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        progress.finish()
        assembly.close()
    if as_json:
        rendered = {"content": [{"type": "text", "text": result.text}], "isError": result.is_error}
        if result.structured is not None:
            rendered["structuredContent"] = result.structured
        print(json.dumps(rendered, ensure_ascii=False, indent=2))  # errors too: `| jq` reads them (exit code 1)
    elif result.is_error:
        print(printable(result.text), file=sys.stderr)
    else:
        print(printable(result.text))
    if result.is_error and isinstance(result.error, InvalidArguments):
        return EXIT_USAGE
    return EXIT_TOOL_ERROR if result.is_error else 0


def list_tools(config: Config) -> int:
    """Print each tool with its parameters."""
    for spec in built_in_specs(config):
        print(f"{spec.name}: {spec.description}")
        required = set(spec.input_schema.get("required", []))
        for name, schema in spec.input_schema.get("properties", {}).items():
            default = f"default {json.dumps(schema['default'])}" if "default" in schema else "optional"
            flag = "required" if name in required else default
            print(f"  {name} ({schema.get('type', 'any')}, {flag}): {schema.get('description', '')}")
    return 0


_CONTROLS = {code: f"^{chr(code + 64)}" for code in range(32) if chr(code) not in "\n\t"}
_CONTROLS.update({127: "^?", **{code: f"\\x{code:02x}" for code in range(0x80, 0xA0)}})


def printable(text: str) -> str:
    """Text for a terminal: control characters a page carried (ESC sequences, BEL) shown as ^[ and
    ^G, never sent raw (they could move the cursor, retitle the window or ring the bell)."""
    return text.translate(_CONTROLS)
