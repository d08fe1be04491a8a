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


def module_name(path: Path) -> str:
    """The dotted name of a module file of the packages: attention/figures/fig_002.py is
    attention.figures.fig_002; a package's __init__.py is the package."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_files() -> dict[str, Path]:
    """Every module of the packages, subpackages included, by its dotted name."""
    return {module_name(f): f for p in PACKAGES for f in sorted((ROOT / p).rglob("*.py"))
            if "__pycache__" not in f.parts}


def imports(path: Path) -> set[str]:
    """Return the modules of the packages that the module at path imports, anywhere in it."""
    name = module_name(path)
    here = name.split(".") if path.stem == "__init__" else name.split(".")[:-1]  # its package
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ".".join([*here[:len(here) - node.level + 1], *([node.module] if node.module else [])]) \
                if node.level else (node.module or "")
            if node.module:  # "from . import lab" imports lab, not its package's __init__
                found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return (found & set(module_files())) - {name}


def graph() -> dict[str, set[str]]:
    """Map each module of the packages to the modules of the packages it imports."""
    return {name: imports(path) for name, path in module_files().items()}


def test_imports_are_read_in_subpackages_too():
    edges = graph()
    assert {"attention.protocol.records", "attention.figures.bench_state", "attention.bench_view"} \
        <= edges["attention.figures.fig_006"]
    assert "attention.figures" in edges["attention.protocol.registry"]


# The core: the arithmetic the chapters explain and the views built on it (ARCHITECTURE.md),
# attention's own modules. It knows nothing of figures (attention.figures), of the page's
# protocol (attention.protocol: requests, URLs, downloads), of what the chapters quote
# (attention.chapters, read by the build) or of the build.
NOT_CORE = ("attention.figures", "attention.protocol", "attention.chapters")


def test_the_core_imports_no_figure_and_no_protocol():
    core = {m: out for m, out in graph().items() if m.startswith("attention.") and not m.startswith(NOT_CORE)}
    assert len(core) >= 15 and "attention.bench" in core and "attention.ops" in core
    assert {m: sorted(o for o in out if o.startswith(NOT_CORE)) for m, out in core.items()} == {m: [] for m in core}


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
    edges = {m: {o for o in out if o.split(".")[0] == package} for m, out in graph().items()
             if m.split(".")[0] == package}
    assert cycle(edges) == []


def test_attention_never_imports_the_site_builder():
    assert {m: out for m, out in graph().items()
            if m.split(".")[0] == "attention" and any(o.split(".")[0] == "sitebuild" for o in out)} == {}


def test_nothing_imports_the_notebook_figures():
    assert {m: out for m, out in graph().items() if m.split(".")[0] != "attention_notebook"
            and any(o.split(".")[0] == "attention_notebook" for o in out)} == {}


MAX_LINES = 400  # a module longer than this holds more than one idea: split it along them


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_400_lines(package):
    sizes = {name: len(p.read_text(encoding="utf-8").splitlines())
             for name, p in module_files().items() if name.split(".")[0] == package}
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
