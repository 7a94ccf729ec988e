"""Command line: serve MCP over stdio (the default), or call one tool from a shell."""

from __future__ import annotations

import sys

from websearch_mcp import __version__, log
from websearch_mcp.config import Config, ConfigError, load_config, validate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, NoReturn

USAGE_EPILOG = """\
examples:
  websearch-mcp                                   serve MCP on stdin/stdout
  websearch-mcp call web_search query="rust async" max_results=5
  websearch-mcp call instant_answer query="python language"
  websearch-mcp tools                             list the tools and their parameters
  websearch-mcp demo                              every tool on recorded pages, offline
  websearch-mcp --http 127.0.0.1:3000             serve MCP (/mcp) and the REST API over HTTP

Settings come from WEBSEARCH_* environment variables (see the README); flags override them.
"""


def _global_flags(defaults: bool) -> Any:
    """The flags every command takes (before or after the command's name)."""
    import argparse

    missing = None if defaults else argparse.SUPPRESS  # a subcommand must not reset what the main parser read
    flags = argparse.ArgumentParser(add_help=False, argument_default=missing)
    flags.add_argument("--log-level", choices=["debug", "info", "warning", "error"],
                       help="stderr log level (WEBSEARCH_LOG_LEVEL, default info)")
    flags.add_argument("--timeout", type=float, help="upstream timeout in seconds (WEBSEARCH_TIMEOUT)")
    flags.add_argument("--max-line-bytes", type=int,
                       help="largest accepted stdio message (WEBSEARCH_MAX_LINE_BYTES, default 4 MiB)")
    flags.add_argument("--servers", metavar="PATH",
                       help="aggregate the backend MCP servers of this file (WEBSEARCH_SERVERS)")
    flags.add_argument("--lightweight-list", action="store_true",
                       help="tools/list gives name and description only (outside the MCP schema)")
    return flags


def _parser() -> Any:
    import argparse

    parser = argparse.ArgumentParser(
        prog="websearch-mcp", epilog=USAGE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[_global_flags(defaults=True)],
        description="An MCP server for web search (DuckDuckGo and other keyless engines, SearXNG, Tavily), "
                    "instant answers, page content and retrieval context; it can also aggregate other MCP servers.")
    parser.set_defaults(lightweight_list=None)
    parser.add_argument("--version", action="version", version=f"websearch-mcp {__version__}")
    parser.add_argument("--http", metavar="[HOST:]PORT", nargs="?", const="127.0.0.1:3000",
                        help="serve HTTP instead of stdio: MCP at /mcp and the REST API "
                             "(default 127.0.0.1:3000)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    flags = _global_flags(defaults=False)
    commands.add_parser("serve", help="serve MCP over stdio (the default)", parents=[flags])
    call = commands.add_parser(
        "call", help="call one tool and print its Markdown", parents=[flags], epilog=CALL_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Call one tool, as an MCP client would, and print its Markdown (stdout) or, with\n"
                    "--json, its whole result. Flags may come anywhere on the line.")
    call.add_argument("tool", nargs="?", help="tool name, e.g. web_search (websearch-mcp tools lists them)")
    call.add_argument("arguments", nargs="*", metavar="NAME=VALUE",
                      help="tool arguments; numbers, booleans and lists are read as JSON; a list argument may "
                           "be repeated (urls=A urls=B)")
    call.add_argument("--json", action="store_true", help="print the whole tool result as JSON on stdout")
    only_logging = _logging_flag()
    commands.add_parser("tools", help="list the tools and their parameters", parents=[only_logging])
    commands.add_parser("demo", help="run every tool against recorded pages on loopback (no network needed)",
                        parents=[only_logging])
    return parser


CALL_EPILOG = """examples:
  websearch-mcp call web_search query="rust async" max_results=5
  websearch-mcp call web_search --json query=rust | jq '.structuredContent.results[0].url'
  websearch-mcp call fetch_content urls=https://example.com urls=https://example.org max_chars=2000
  websearch-mcp call fetch_content urls=https://docs.python.org/3/library/json.html query="parse floats"
  websearch-mcp call search_context query="what is HTTP/3" max_tokens=1500

exit codes:
  0  the tool answered
  1  the tool reported an error (its message is on stderr, or in the JSON with --json)
  2  the command line or the arguments are wrong, or a setting has a value the server cannot use
  130  interrupted (Ctrl-C)
"""

_VALUE_FLAGS = ("--log-level", "--timeout", "--max-line-bytes", "--servers")


def flags_first(words: list[str]) -> list[str]:
    """`call`'s words with its flags moved before the tool name, so that they may come anywhere
    (argparse reads no flag after the first of a list of positional words)."""
    if not words or words[0] != "call":
        return words
    flags: list[str] = []
    rest: list[str] = []
    pending = False
    for word in words[1:]:
        if pending:
            flags.append(word)
            pending = False
        elif word.startswith("-") and not word.startswith("---"):
            flags.append(word)
            pending = word in _VALUE_FLAGS
        else:
            rest.append(word)
    if pending:  # a flag that needs a value came last: leave it last, so that argparse says it has none
        return ["call", *flags[:-1], *rest, flags[-1]]
    return ["call", *flags, *rest]


def _logging_flag() -> Any:
    import argparse

    flags = argparse.ArgumentParser(add_help=False, argument_default=argparse.SUPPRESS)
    flags.add_argument("--log-level", choices=["debug", "info", "warning", "error"],
                       help="stderr log level (WEBSEARCH_LOG_LEVEL, default info)")
    return flags


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `websearch-mcp` command."""
    try:
        status = _main(list(sys.argv[1:] if argv is None else argv))
        sys.stdout.flush()  # here, not at exit, where a closed pipe could only be reported as a traceback
        return status
    except ConfigError as err:
        print(f"websearch-mcp: configuration error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: no traceback
        return 130
    except BrokenPipeError:  # the reader went away (`websearch-mcp tools | head -1`): nothing more to say
        _silence_stdout()
        return 0


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit raises no second BrokenPipeError."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


_FLAG_FIELDS = {"timeout": "--timeout", "max_line_bytes": "--max-line-bytes", "log_level": "--log-level",
                "servers_file": "--servers"}


def _main(args_list: list[str]) -> int:
    config = load_config()
    if not args_list:  # the path MCP clients take: no argparse, nothing imported that is not needed
        if sys.stdin.isatty():
            print("websearch-mcp: serving MCP (JSON-RPC, one message a line) on stdin/stdout; try "
                  '{"jsonrpc":"2.0","id":1,"method":"ping"}, Ctrl-D to end. `websearch-mcp --help` lists '
                  "the commands.", file=sys.stderr)
        _exit_now(run_stdio(config))
    args = _parser().parse_args(flags_first(args_list))
    flags = {"log_level": args.log_level, "timeout": args.timeout, "max_line_bytes": args.max_line_bytes,
             "servers_file": args.servers, "lightweight_list": args.lightweight_list}
    config = config.with_overrides(**flags)
    try:
        validate(config)  # the one validation, for flags as for variables
    except ConfigError as err:
        if flags.get(err.field) is not None:
            value = flags[err.field]
            rule = str(err).split(": ", 1)[-1]
            raise ConfigError(f"{_FLAG_FIELDS.get(err.field, err.field)} {value}: {rule}") from None
        raise
    log.set_level(config.log_level)
    if args.command == "call":
        from websearch_mcp.call import call_tool

        return call_tool(config, args.tool or "", args.arguments, as_json=args.json)
    if args.command == "tools":
        from websearch_mcp.call import list_tools

        return list_tools(config)
    if args.command == "demo":
        from websearch_mcp.demo import run_demo

        return run_demo(config)
    if args.http:
        from websearch_mcp.transports.http.server import serve_http

        try:
            return serve_http(config, args.http)
        except (ValueError, OSError) as err:
            print(f"websearch-mcp: cannot serve HTTP on {args.http}: {err}", file=sys.stderr)
            return 2
    _exit_now(run_stdio(config))


def _exit_now(status: int) -> NoReturn:
    """End the process now that every reply is written and everything is closed: tearing down the
    interpreter's modules would cost a client ~3 ms more at each spawn, for nothing."""
    import os

    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(status)


def run_stdio(config: Config) -> int:
    """Serve MCP on this process's stdin and stdout until stdin closes."""
    from websearch_mcp.assembly import Assembly
    from websearch_mcp.transports.stdio import serve

    log.set_level(config.log_level)
    assembly = Assembly(config)
    # Without backend servers SIGTERM keeps its default action (exit at once): nothing needs
    # cleaning up, and importing `signal` would cost start-up time.
    if assembly.backends is not None:
        _close_on_sigterm(assembly)
    assembly.start()
    protocol_out = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print() from anywhere must not corrupt the protocol stream
    try:
        status = serve(sys.stdin.buffer, protocol_out, assembly.server, config)
    except KeyboardInterrupt:  # Ctrl-C in a terminal: no traceback
        status = 130
    finally:
        assembly.close()
    try:
        protocol_out.flush()
    except (OSError, ValueError):
        pass
    return status


def _close_on_sigterm(assembly: Any) -> None:
    """Close the backend servers on SIGTERM too, then exit."""
    import os
    import signal

    def close_and_exit(signum: int, frame: Any) -> None:
        assembly.close()
        os._exit(0)

    signal.signal(signal.SIGTERM, close_and_exit)
