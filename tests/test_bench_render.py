"""The bench's figures' modules (fig-004.js, fig-006.js): the one writer of each figure's region."""

from __future__ import annotations

import re

from sitebuild.site import TEMPLATES

JS = TEMPLATES / "static" / "js"


def test_the_drawings_what_if_layer_is_drawn_by_the_drawing_alone():
    """FIG-004's drawing had two writers (bench.js drew it, whatif.js drew its what-if layer
    on top, each from its own subscription); renderDrawing now draws both."""
    callers = {path.name for path in JS.rglob("*.js")
               if re.search(r"\brenderWhatifDrawing\(", path.read_text(encoding="utf-8"))
               and path.name != "bench-whatif.js"}
    assert callers == {"fig-004.js"}
    render = (JS / "figures" / "fig-004.js").read_text(encoding="utf-8")
    body = render.split("function renderDrawing", 1)[1].split("\n}\n", 1)[0]
    assert "renderWhatifDrawing(root, d)" in body


def test_the_matrix_is_filled_by_render_matrix_alone():
    """FIG-006's table had two writers (renderMatrix, and whatif-matrix.js's fillMatrix, which
    relied on bench.js having filled in the answer first); the toggle now only says in the
    store which matrix to show, and renderMatrix fills the table either way."""
    writers = {path.name for path in JS.rglob("*.js")
               if re.search(r"\bfill(Cell|RowHead)\(", path.read_text(encoding="utf-8"))
               and path.name != "bench-parts.js"}
    assert writers == {"fig-006.js"}
    toggle = (JS / "figures" / "whatif-matrix.js").read_text(encoding="utf-8")
    assert "store.set({ matrixWithout: on })" in toggle and "table" not in toggle.split("mount", 1)[1]
