"""The site's one stylesheet, as readers download it: the rules every page shares
(``templates/static/style.css``), then each figure's own rules, from the file named after it
beside its markup (``templates/figures/fig-NNN.css``), in the order of the figures' numbers.

A figure's rules come after the shared ones, so that they win where both set the same thing
at the same specificity. Nothing lists the figures' sheets: a new figure's ``.css`` joins by
being there. The site (sitebuild.folder), the fragments (sitebuild.fragment) and the notebook
figures (attention_notebook.markup) all read the sheet from here.

>>> from sitebuild.site import TEMPLATES
>>> sheet = stylesheet(TEMPLATES)
>>> sheet.startswith((TEMPLATES / "static" / "style.css").read_text(encoding="utf-8"))
True
>>> [p.name for p in sheets(TEMPLATES)][:2]
['style.css', 'fig-001.css']
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["sheets", "stylesheet"]


def sheets(templates: Path) -> list[Path]:
    """The files the stylesheet is joined from, in the order they are joined."""
    return [templates / "static" / "style.css", *sorted((templates / "figures").glob("fig-*.css")),
            templates / "handout" / "handout.css"]


def stylesheet(templates: Path) -> str:
    """The whole stylesheet, not yet minified (sitebuild.folder.minify_css does that)."""
    return "".join(p.read_text(encoding="utf-8") for p in sheets(templates))
