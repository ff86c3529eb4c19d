"""What the package declares: every library it imports is a dependency, and the version is written once."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

from cli_helpers import run

import smear_sim

ROOT = Path(__file__).parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def distribution_name(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def imported_modules() -> set[str]:
    """Top-level modules the package imports, less the fallbacks in ``except ImportError`` blocks."""
    names = set()
    for path in (ROOT / "smear_sim").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        fallbacks = {id(n) for t in ast.walk(tree) if isinstance(t, ast.Try) for h in t.handlers for n in ast.walk(h)}
        for node in ast.walk(tree):
            if id(node) in fallbacks:
                continue
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"smear_sim"}


def test_every_imported_library_is_a_dependency():
    # Regression: rich was imported but not declared, and pyarrow (which pandas needs for Parquet) was an
    # optional extra, so `report` wrote different files on different machines.
    extras = PROJECT.get("optional-dependencies", {})
    declared = {distribution_name(r) for r in PROJECT["dependencies"]}
    declared_anywhere = declared | {distribution_name(r) for group in extras.values() for r in group}
    providers = importlib.metadata.packages_distributions()
    for module in imported_modules():
        assert {d.lower() for d in providers[module]} & declared_anywhere, f"{module} is imported but not declared"
    assert {"rich", "pyarrow"} <= declared and "parquet" not in extras


def test_the_version_is_written_once():
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    dynamic = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["dynamic"]
    assert dynamic["version"] == {"attr": "smear_sim._version.__version__"}  # a module importing nothing
    assert "__version__ =" not in (ROOT / "smear_sim" / "__init__.py").read_text(encoding="utf-8")
    assert importlib.metadata.version("smear-sim") == smear_sim.__version__
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout == f"smear-sim {smear_sim.__version__}\n" and proc.stderr == ""
