"""V8's compile hint (``//# allFunctionsCalledOnLoad``, Chromium 136 and later; a comment
elsewhere) on the modules a live figure's click runs: they are compiled while they load, off
the main thread, instead of function by function inside a visit's first click (measured on
/bench/: 3 to 15 ms of a first click's task went to compiling its functions). Modules loaded on
demand (sharing, the runtime's boot, the worker) are compiled when they are used, as before."""

from __future__ import annotations

import re

from sitebuild import modules, widgets
from sitebuild.site import TEMPLATES

HINT = "//# allFunctionsCalledOnLoad"
JS = TEMPLATES / "static" / "js"


def _hinted(folder) -> set[str]:
    return {p.name for p in folder.rglob("*.js") if p.read_text(encoding="utf-8").startswith(HINT + "\n")}


def _clicked() -> set[str]:
    """page.js, every widget module it can load, and their static imports."""
    mounted = [(JS / module).resolve() for module in widgets.widgets(TEMPLATES).values()]
    return {p.name for p in modules.graph((JS / "page.js").resolve(), *mounted)}


def test_the_modules_a_click_runs_carry_the_hint_and_only_they():
    clicked = _clicked()
    assert {"page.js", "bench.js", "fig-004.js", "fig-005.js", "fig-006.js", "dom.js", "near.js",
            "runtime.js", "fig-002.js"} <= clicked
    assert "share.js" not in clicked and "worker.js" not in clicked and "boot.js" not in clicked
    assert _hinted(JS) == clicked


def test_the_built_modules_keep_the_hint_first(built_site):
    built = {re.sub(r"\.[0-9a-f]{10}\.js$", ".js", name) for name in _hinted(built_site / "static" / "js")}
    assert built == _clicked()
