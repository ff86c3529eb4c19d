"""The page's ES modules (smear_sim/web/static): each import names a module that is there, and no module imports
another that imports it back, directly or not (a cycle loads in a browser, but in an order that depends on which
module is asked for first)."""

from __future__ import annotations

import re

from smear_sim.web.server import STATIC

IMPORT = re.compile(r"^\s*import\s[^;]*?from\s+'\./([\w-]+\.js)';", re.MULTILINE)


def imports() -> dict[str, set[str]]:
    return {path.name: set(IMPORT.findall(path.read_text(encoding="utf-8"))) for path in STATIC.glob("*.js")}


def test_every_import_names_a_module_of_the_page():
    graph = imports()
    assert {"app.js", "calls.js", "options.js", "seat.js"} <= set(graph)
    missing = {(name, used) for name, uses in graph.items() for used in uses if used not in graph}
    assert not missing, missing


def test_the_page_modules_import_no_cycle():
    graph = imports()
    cycles = []

    def visit(name: str, path: list[str]) -> None:
        for used in sorted(graph[name]):
            if used in path:
                cycles.append(path[path.index(used):] + [used])
            else:
                visit(used, [*path, used])

    for name in sorted(graph):
        visit(name, [name])
    assert not cycles, cycles[0]
