"""The floors of the package (README, "How it works"): every module imports only from the floors below it, and no
module imports another that imports it back, however indirectly, inside functions included.

The floors: 1 core; 2 reference and kernels (never each other); 3 engine; 4 analysis; 5 output and web; 6 cli;
the package root, the public API, imported only by cli (and users).

Imports are read from the source with ``ast``, so imports inside functions count as much as those at the top.
Imports under ``if TYPE_CHECKING:`` count for the floors (a type from a higher floor is a dependency on it too)
and for cycles: they never run, but two modules that name each other's types are still one concern cut in two.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "smear_sim"
FLOORS = {"_version": 1, "_frame_stack": 1, "data": 1, "core": 1, "reference": 2, "kernels": 2, "engine": 3,
          "analysis": 4, "output": 5, "web": 5, "openspiel": 5, "cli": 6}
ROOT_FLOOR = 7  # smear_sim/__init__.py (the public API) and __main__.py: imported only by cli and by users
APART = {"reference", "kernels"}  # one floor, but never each other: the tests hold them to each other


def modules(package: Path = PACKAGE) -> dict[str, tuple[Path, bool]]:
    found = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    nodes = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            nodes |= {id(n) for child in node.body for n in ast.walk(child)}
    return nodes


def imports(package: Path = PACKAGE) -> dict[str, set[tuple[str, bool]]]:
    """Each module's imports of the package's modules: ``(module, runs)``, ``runs`` False under TYPE_CHECKING."""
    known = modules(package)
    graph: dict[str, set[tuple[str, bool]]] = {}
    for name, (path, is_package) in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = _type_checking_nodes(tree)
        found = set()
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.split(".")[0] == "smear_sim"]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".") if is_package else name.split(".")[:-1]
                    base = base[:len(base) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                elif (node.module or "").split(".")[0] == "smear_sim":
                    module = node.module
                else:
                    continue
                targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]
            for target in targets:
                while target not in known:
                    target = target.rsplit(".", 1)[0]
                if target != name:
                    found.add((target, id(node) not in typing_only))
        graph[name] = found
    return graph


def floor(module: str) -> tuple[int, str]:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "__main__":
        return ROOT_FLOOR, "root"
    return FLOORS[parts[1]], parts[1]


def test_every_part_has_a_floor():
    parts = {p.name if p.is_dir() else p.stem for p in PACKAGE.iterdir() if p.name != "__pycache__"}
    assert parts - {"__init__", "__main__"} <= set(FLOORS), parts - set(FLOORS)


def test_no_module_imports_from_a_higher_floor():
    wrong = []
    for module, targets in sorted(imports().items()):
        level, part = floor(module)
        for target, _ in sorted(targets):
            target_level, target_part = floor(target)
            if target_part == "root":
                if part not in ("cli", "root"):
                    wrong.append(f"{module} imports the package root (only cli may)")
            elif target_level > level:
                wrong.append(f"{module} (floor {level}) imports {target} (floor {target_level})")
            elif part != target_part and {part, target_part} == APART:
                wrong.append(f"{module} imports {target}: reference and kernels never import each other")
    assert not wrong, "\n".join(wrong)


def import_cycles(graph: dict[str, set[tuple[str, bool]]]) -> list[list[str]]:
    """The modules that import each other, however indirectly: lazy and ``TYPE_CHECKING`` imports included."""
    edges = {m: {t for t, _ in targets} for m, targets in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return cycles


def test_no_import_cycles_lazy_and_type_checking_ones_included():
    cycles = import_cycles(imports())
    assert not cycles, cycles


def test_the_reader_sees_lazy_imports():
    """The check has teeth: an import inside a function is read, and a TYPE_CHECKING import is marked."""
    graph = imports()
    assert ("smear_sim.analysis.bidder_tables", True) in graph["smear_sim.cli.app"]  # inside ready_players
    assert ("smear_sim.engine.checkpoint", False) in graph["smear_sim.engine.runner"]  # a type only


def test_a_lazy_or_type_checking_circle_is_a_cycle(tmp_path):
    """The cycle check has teeth: a circle closed only inside a function, or only under TYPE_CHECKING, is found."""
    package = tmp_path / "smear_sim"
    (package / "engine").mkdir(parents=True)
    for name in ("__init__", "engine/__init__"):
        (package / f"{name}.py").write_text("")
    (package / "engine/a.py").write_text("from .b import B\n")
    (package / "engine/b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n")
    (package / "engine/c.py").write_text("def later():\n    from .d import D\n")
    (package / "engine/d.py").write_text("from .c import later\n")
    assert import_cycles(imports(package)) == [["smear_sim.engine.a", "smear_sim.engine.b"],
                                               ["smear_sim.engine.c", "smear_sim.engine.d"]]
