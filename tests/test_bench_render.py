"""templates/static/js/bench-render.js: the one writer of each bench figure's region."""

from __future__ import annotations

import re

from sitebuild.site import TEMPLATES

JS = TEMPLATES / "static" / "js"


def test_the_drawings_what_if_layer_is_drawn_by_the_drawing_alone():
    """FIG-004's drawing had two writers (bench.js drew it, whatif.js drew its what-if layer
    on top, each from its own subscription); renderDrawing now draws both."""
    callers = {path.name for path in JS.glob("*.js")
               if re.search(r"\brenderWhatifDrawing\(", path.read_text(encoding="utf-8"))
               and path.name != "bench-whatif.js"}
    assert callers == {"bench-render.js"}
    render = (JS / "bench-render.js").read_text(encoding="utf-8")
    body = render.split("export function renderDrawing", 1)[1].split("\n}\n", 1)[0]
    assert "renderWhatifDrawing(root, d)" in body
