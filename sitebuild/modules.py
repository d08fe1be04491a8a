"""The site's JavaScript modules as a graph: which modules a page runs, so that the page can ask
for all of them at once (``<link rel="modulepreload">``) and the benchmark can weigh them.

A page runs ``page.js``, its static imports, and the module of each widget on it (page.js's
``WIDGETS`` table: ``"fig-002": () => import("./fig002.js")``) with theirs. Modules imported
later, on demand (the status line, sharing, the runtime's boot), are not in it.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["graph", "preloads"]

_IMPORT = re.compile(r'^\s*import\s[^;]*?from\s+"(\.{1,2}/[^"]+)"|^\s*import\s+"(\.{1,2}/[^"]+)"', re.M)
_WIDGET_IMPORT = re.compile(r'"?([\w-]+)"?: \(\) => import\("(\.{1,2}/[^"]+)"\)')
_WIDGET = re.compile(r'data-widget="([^"]+)"')


def graph(start: Path, widgets: set[str]) -> set[Path]:
    """Return a JS module and every module it imports, statically or for a widget on the page."""
    seen, todo = set(), [start]
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        text = path.read_text(encoding="utf-8")
        for m in _IMPORT.finditer(text):
            todo.append((path.parent / (m.group(1) or m.group(2))).resolve())
        for name, target in _WIDGET_IMPORT.findall(text):
            if name in widgets:
                todo.append((path.parent / target).resolve())
    return seen


def preloads(js: Path, body: str) -> list[str]:
    """The modules (as "js/<name>", below static/) that page.js loads for the widgets of a
    page's body, page.js itself left out (the page names it in its own script tag).

    >>> from sitebuild.site import TEMPLATES
    >>> names = preloads(TEMPLATES / "static" / "js", '<figure data-widget="fig-002">')
    >>> "js/fig002.js" in names, "js/runtime.js" in names, "js/page.js" in names, "js/lab.js" in names
    (True, True, False, False)
    """
    widgets = set(_WIDGET.findall(body))
    if not widgets:
        return []
    page = (js / "page.js").resolve()
    return sorted(f"js/{p.name}" for p in graph(page, widgets) if p != page)
