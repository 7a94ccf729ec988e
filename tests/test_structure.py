"""The package's structure: no module imports, directly or through others, a module that imports it
(type-only imports count: they are the same dependency, written down)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "websearch_mcp"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("websearch_mcp"):
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.startswith("websearch_mcp")]
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, pending = set(), [start]
    while pending:
        current = pending.pop()
        if current == goal:
            return True
        if current not in seen:
            seen.add(current)
            pending.extend(graph.get(current, ()))
    return False


def test_the_protocol_and_the_pipeline_do_not_import_each_other():
    graph = _imports()
    assert not (_reaches(graph, "websearch_mcp.mcp", "websearch_mcp.pipeline")
                and _reaches(graph, "websearch_mcp.pipeline", "websearch_mcp.mcp"))


def test_the_services_do_not_reach_back_into_the_tools_layer():
    graph = _imports()
    services = [name for name in graph if name.startswith("websearch_mcp.services")]
    for service in services:
        assert not _reaches(graph, service, "websearch_mcp.tools.registry"), service


def test_what_to_read_of_a_page_is_decided_in_one_place():
    """fetch_content, search_context and crawl_site all focus pages through services/reading.py: no
    other module ranks passages or cuts outlines itself."""
    import re
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "websearch_mcp"
    focusing = re.compile(r"\b(best_passages|split_passages|outline)\(|\brank\(")
    allowed = {"services/reading.py", "sections.py", "passages.py"}
    offenders = [str(path.relative_to(package)) for path in package.rglob("*.py")
                 if str(path.relative_to(package)) not in allowed and focusing.search(path.read_text())]
    assert offenders == []
