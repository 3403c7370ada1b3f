"""No import cycles among the modules of meeplemind's packages, and no import across the layers.

The graph is read from the sources with ``ast`` (every ``import`` wherever it stands, a
function's too, but not those under ``if TYPE_CHECKING:``, which never run), laid out as
pyproject.toml's ``package-dir`` installs them; a cycle fails naming its modules in order.
"""

from __future__ import annotations

import ast
import pathlib
import tomllib
from collections.abc import Iterator

ROOT = pathlib.Path(__file__).resolve().parents[1]


def modules() -> dict[str, pathlib.Path]:
    """The source file of every module, by dotted name (the deepest package folder wins)."""
    folders = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    found: dict[str, pathlib.Path] = {}
    for package in sorted(folders, key=lambda name: name.count(".")):
        for path in (ROOT / folders[package]).rglob("*.py"):
            parts = path.relative_to(ROOT / folders[package]).with_suffix("").parts
            found[".".join((package, *(parts[:-1] if parts[-1] == "__init__" else parts)))] = path
    return found


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` but the bodies of ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            yield from (n for child in node.orelse for n in (child, *_runtime_nodes(child)))
            continue
        yield node
        yield from _runtime_nodes(node)


def imports(name: str, path: pathlib.Path, known: dict[str, pathlib.Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` (at ``path``) imports."""
    def nearest(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str | None] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets.update(nearest(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            targets.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else nearest(base)
                           for alias in node.names)
    return {t for t in targets if t is not None and t != name}


def cycles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """One cycle through each strongly connected group of ``graph`` (Tarjan), as the
    modules in import order starting from the first by name."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = {stack.pop()}
            while module not in group:
                group.add(stack.pop())
            if len(group) > 1:
                groups.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return [_cycle_in(graph, group) for group in groups]


def _cycle_in(graph: dict[str, set[str]], group: set[str]) -> tuple[str, ...]:
    """A shortest cycle through the first module of ``group`` by name (breadth first)."""
    start = min(group)
    paths = {start: (start,)}
    frontier = [start]
    while frontier:
        reached = []
        for module in frontier:
            for target in sorted(graph[module] & group):
                if target == start:
                    return paths[module]
                if target not in paths:
                    paths[target] = (*paths[module], target)
                    reached.append(target)
        frontier = reached
    raise AssertionError(f"{sorted(group)} holds no cycle")


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_no_import_cycles() -> None:
    found = [" -> ".join((*cycle, cycle[0])) for cycle in cycles(import_graph())]
    assert not found, "import cycles:\n" + "\n".join(found)


def test_the_graph_sees_the_server_and_finds_a_cycle() -> None:
    graph = import_graph()
    assert {"meeplemind.server.app", "meeplemind.server.http_gateway"} <= graph["meeplemind.server.serving"]
    assert "meeplemind.server.options" in graph["meeplemind.server"]
    graph["meeplemind.server.app"].add("meeplemind.server.command")
    assert ("meeplemind.server.app", "meeplemind.server.command") in cycles(graph)


#: The layers (docs/architecture.md): the packages a package's modules may not import. The
#: rules know no messages, positions, search or service; positions (the boundary) know the
#: rules and the C engines, not what searches or serves them.
FORBIDDEN = {
    "meeplemind.engine": ("meeplemind.positions", "meeplemind.search", "meeplemind.server", "meeplemind.v1"),
    "meeplemind.positions": ("meeplemind.search", "meeplemind.server"),
}


def layer_breaches(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module of a package in ``FORBIDDEN`` of a package forbidden to it."""
    def within(module: str, package: str) -> bool:
        return module == package or module.startswith(package + ".")

    return sorted(f"{module} -> {target}" for module, targets in graph.items()
                  for package, forbidden in FORBIDDEN.items() if within(module, package)
                  for target in targets if any(within(target, f) for f in forbidden))


def test_each_layer_imports_only_those_below() -> None:
    found = layer_breaches(import_graph())
    assert not found, "imports across the layers:\n" + "\n".join(found)


def test_the_layer_rule_finds_a_breach() -> None:
    graph = import_graph()
    assert "meeplemind.positions.checked" in graph["meeplemind.positions"]
    graph["meeplemind.engine.game_state"].add("meeplemind.positions.messages")
    graph["meeplemind.positions.check"].add("meeplemind.search.ismcts")
    assert layer_breaches(graph) == ["meeplemind.engine.game_state -> meeplemind.positions.messages",
                                     "meeplemind.positions.check -> meeplemind.search.ismcts"]
