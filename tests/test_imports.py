"""The packages' modules: each of one idea and of a readable size, importing one another
without a cycle, counting imports made inside functions.

An import moved into a function to dodge a cycle still ties two modules together: each needs
the other to be understood, tested or changed. The only allowed directions between packages are
sitebuild -> attention (the browser's wheel carries attention alone) and attention_notebook ->
sitebuild, attention (the notebook figures render the site's templates; nothing needs them).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("attention", "sitebuild", "attention_notebook")


def imports(path: Path, package: str) -> set[str]:
    """Return the modules of either package that the module at path imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package if node.level else (node.module or "")
            if node.level and node.module:
                base = f"{package}.{node.module}"
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}  # "from . import lab"
    modules = {f"{p}.{f.stem}" for p in PACKAGES for f in (ROOT / p).glob("*.py") if f.stem != "__init__"}
    return {name for name in found if name in modules}


def graph() -> dict[str, set[str]]:
    """Map each module of the packages to the modules of the packages it imports."""
    return {f"{package}.{path.stem}": imports(path, package) - {f"{package}.{path.stem}"}
            for package in PACKAGES for path in sorted((ROOT / package).glob("*.py"))
            if path.stem != "__init__"}


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """Return one cycle of the graph as a list of modules (first repeated last), or []."""
    state: dict[str, str] = {}  # module: "open" while on the path, "done" after

    def visit(module: str, path: list[str]) -> list[str]:
        state[module] = "open"
        for other in sorted(edges.get(module, ())):
            if state.get(other) == "open":
                return [*path[path.index(other):], module, other] if other in path else [module, other]
            if other not in state and (found := visit(other, [*path, module])):
                return found
        state[module] = "done"
        return []

    for module in sorted(edges):
        if module not in state and (found := visit(module, [])):
            return found
    return []


def test_the_cycle_finder_finds_a_cycle_and_only_a_cycle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package):
    edges = {m: {o for o in out if o.startswith(package + ".")} for m, out in graph().items()
             if m.startswith(package + ".")}
    assert cycle(edges) == []


def test_attention_never_imports_the_site_builder():
    assert {m: out for m, out in graph().items()
            if m.startswith("attention.") and any(o.startswith("sitebuild.") for o in out)} == {}


def test_nothing_imports_the_notebook_figures():
    assert {m: out for m, out in graph().items() if not m.startswith("attention_notebook.")
            and any(o.startswith("attention_notebook.") for o in out)} == {}


MAX_LINES = 400  # a module longer than this holds more than one idea: split it along them


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_400_lines(package):
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines())
             for p in (ROOT / package).glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
