"""The engine stays walkable: small modules, nothing from the rest of `app`, no import
cycles between its modules (read from the source, so TYPE_CHECKING imports count too)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "app" / "engine"


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in ENGINE.glob("*.py"):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                deps.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
        graph[path.stem] = deps
    return graph


def test_no_engine_module_is_over_600_lines() -> None:
    sizes = {p.name: len(p.read_text().splitlines()) for p in ENGINE.glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 600} == {}


def test_the_engine_imports_nothing_else_from_app() -> None:
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert not node.module.startswith("app"), f"{path.name} imports {node.module}"
            if isinstance(node, ast.ImportFrom) and node.level > 1:
                raise AssertionError(f"{path.name} imports from outside app.engine")


def test_no_import_cycles_in_the_engine() -> None:
    graph = _imports()
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for dep in sorted(graph.get(module, ())):
            if state.get(dep) == 1:
                cycles.append(path[path.index(dep):] + [dep])
            elif dep not in state:
                visit(dep, [*path, dep])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []
