"""No import circles between the project's modules (imports under TYPE_CHECKING and inside
functions count too: a circle there is still two modules that each need the other).

Where two parts need a little of each other, the upper one's surface is named as a protocol
below both (world/ports.py, world/hub.py TableDirectory, server/ports.py)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("server", "commands", "world", "games")

# No circle is known: the last one (the Mafia engine and its rule extensions) was untangled by
# splitting the engine's core into state, abilities, night, resolution (games/mafia/).
KNOWN: list[frozenset[str]] = []


def modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def import_graph() -> dict[str, set[str]]:
    known = modules()

    def owner(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, (path, is_package) in known.items():
        package = name if is_package else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source
                           for alias in node.names]
            for target in targets:
                module = owner(target)
                if module and module != name:
                    graph[name].add(module)
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def test_the_finder_sees_a_circle_through_type_checking_imports():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [frozenset({"a", "b", "c"})]


def test_no_import_circles_but_the_known_one():
    found = circles(import_graph())
    assert sorted(map(sorted, found)) == sorted(map(sorted, KNOWN)), found


def test_the_table_layer_imports_one_way():
    graph = import_graph()
    assert "world.tables" not in graph["world.hub"]
    assert "world.tables" not in graph["world.runner"]
    assert "world.runner" not in graph["world.table_output"]
    assert not {m for m in graph["world.presenters"] if m.startswith("world.tables")}
    assert "server.app" not in graph["server.session"] | graph["server.ssh"] | graph["server.telnet"]
