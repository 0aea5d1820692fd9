"""No import cycles: neither between the subpackages of nl2sparql nor between its modules.

Every ``import`` and ``from … import`` statement of every module is read with
:mod:`ast` (function-level imports included: a lazy import is still a
dependency). ``from pkg import name`` depends on the module ``pkg.name`` when
there is one, else on ``pkg``. A failure names the cycle, e.g.
``patterns -> translate -> patterns``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "nl2sparql"

#: What the command-line layer may import: it presents what nl2sparql.api returns (plus typer/rich), and it
#: starts the two other ways in (the MCP server and the web UI), which stand on the API themselves.
CLI_MAY_IMPORT = ("nl2sparql.api", "nl2sparql.errors", "nl2sparql.checks", "nl2sparql.namespaces", "nl2sparql.cli",
                  "nl2sparql.fileio", "nl2sparql.paths", "nl2sparql.mcp", "nl2sparql.ui")
#: The ways in other than the CLI: they stand on nl2sparql.api alone (plus their own modules and plain helpers).
WAYS_IN = ("nl2sparql.mcp", "nl2sparql.ui")
WAY_IN_MAY_IMPORT = ("nl2sparql.api", "nl2sparql.errors", "nl2sparql.checks", "nl2sparql.namespaces",
                     "nl2sparql.paths", "nl2sparql.fileio")


def module_name(path: Path) -> str:
    """``nl2sparql/patterns/base.py`` → ``nl2sparql.patterns.base`` (a package's ``__init__`` is the package)."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package modules that ``name`` imports."""
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "nl2sparql")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "nl2sparql":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in known else target)
    return {m for m in out if m in known and m != name}


def graph() -> dict[str, set[str]]:
    """Module → the package modules it imports."""
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def component(module: str) -> str:
    """The direct child of ``nl2sparql`` a module belongs to (``patterns``, ``fileio``; the root is ``nl2sparql``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def package_graph(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """Subpackage (or top-level module) → the ones it imports."""
    out: dict[str, set[str]] = {}
    for source, targets in edges.items():
        node = out.setdefault(component(source), set())
        node.update(component(t) for t in targets if component(t) != component(source))
    return out


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle path (first node repeated at the end) per strongly connected component with a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(node: str) -> None:  # Tarjan, recursive: the graph has a few hundred nodes
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            members = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                members.add(top)
                if top == node:
                    break
            if len(members) > 1:
                components.append(members)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return [_path_in(members, edges) for members in components]


def _path_in(members: set[str], edges: dict[str, set[str]]) -> list[str]:
    """A shortest cycle through the smallest member of a strongly connected component."""
    start = min(members)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt_frontier = []
        for node in frontier:
            for nxt in sorted(edges.get(node, ()) & members):
                if nxt == start:
                    return paths[node] + [start]
                if nxt not in paths:
                    paths[nxt] = paths[node] + [nxt]
                    nxt_frontier.append(nxt)
        frontier = nxt_frontier
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover - members form a cycle


def _shown(found: list[list[str]]) -> str:
    return "\n".join(" -> ".join(path) for path in found)


def test_no_cycle_between_subpackages():
    found = cycles(package_graph(graph()))
    assert not found, "import cycles between subpackages:\n" + _shown(found)


def test_no_cycle_between_modules():
    found = cycles(graph())
    assert not found, "import cycles between modules:\n" + _shown(found)


def test_the_mcp_server_and_the_ui_stand_on_the_api():
    """The MCP server and the web UI are thin adapters: no logic below nl2sparql.api is called directly."""
    bad = {f"{source} imports {target}" for source, targets in graph().items() if source.startswith(WAYS_IN)
           for target in targets
           if not target.startswith(WAY_IN_MAY_IMPORT) and not target.startswith(source.rsplit(".", 1)[0])}
    assert not bad, "\n".join(sorted(bad))


def test_the_cli_is_presentation_over_the_api():
    """Commands call nl2sparql.api; they never assemble translators, KBs or scorers themselves."""
    bad = {f"{source} imports {target}" for source, targets in graph().items() if source.startswith("nl2sparql.cli")
           for target in targets if not target.startswith(CLI_MAY_IMPORT)}
    assert not bad, "\n".join(sorted(bad))


def test_the_checker_finds_cycles():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    names = modules()
    assert "nl2sparql.patterns" in names and "nl2sparql.patterns.base" in names
    edges = graph()
    assert "nl2sparql.patterns.base" in edges["nl2sparql.patterns.emotion_lexicon"]
    assert "nl2sparql.sparql.model" in edges["nl2sparql.patterns.base"]


@pytest.mark.parametrize("source, expected", [
    ("from . import base\n", "nl2sparql.patterns.base"),
    ("from .base import Pattern\n", "nl2sparql.patterns.base"),
    ("from ..sparql.model import IRI\n", "nl2sparql.sparql.model"),
    ("from .. import patterns\n", "nl2sparql.patterns"),
    ("import nl2sparql.sparql.lexer\n", "nl2sparql.sparql.lexer"),
    ("def f():\n    from ..translate import text\n", "nl2sparql.translate.text"),
])
def test_imports_are_resolved(tmp_path, source, expected):
    path = PACKAGE / "patterns" / "emotion_lexicon.py"
    fake = tmp_path / "m.py"
    fake.write_text(source)
    assert imports("nl2sparql.patterns.emotion_lexicon", fake, set(modules())) == {expected}
    assert path.is_file()
