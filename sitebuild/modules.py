"""The site's JavaScript modules as a graph: which modules a page runs, so that the page can ask
for all of them at once (``<link rel="modulepreload">``) and the benchmark can weigh them.

A page runs ``page.js``, its static imports, and the module of each widget on it (a
``data-widget="lab"`` is mounted by ``figures/lab.js``: sitebuild.widgets) with theirs. Modules
imported later, on demand (the status line, sharing, the runtime's boot), are not in it.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import strings, widgets

__all__ = ["graph", "preloads"]

_IMPORT = re.compile(r'^\s*import\s[^;]*?from\s+"(\.{1,2}/[^"]+)"|^\s*import\s+"(\.{1,2}/[^"]+)"', re.M)


def graph(*starts: Path, missing: set[Path] | None = None) -> set[Path]:
    """Return JS modules and every module they import statically; an import of a file not
    there (one the build writes) is added to ``missing``, if given."""
    seen, todo = set(), list(starts)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        if not path.is_file():
            if missing is not None:
                missing.add(path)
            continue
        seen.add(path)
        text = path.read_text(encoding="utf-8")
        for m in _IMPORT.finditer(text):
            todo.append((path.parent / (m.group(1) or m.group(2))).resolve())
    return seen


def preloads(js: Path, body: str) -> list[str]:
    """The modules (as "js/<path>", below static/) that page.js loads for the widgets of a
    page's body, page.js itself left out (the page names it in its own script tag).

    >>> from sitebuild.site import TEMPLATES
    >>> names = preloads(TEMPLATES / "static" / "js", '<figure data-widget="fig-002">')
    >>> "js/figures/fig-002.js" in names, "js/runtime.js" in names, "js/page.js" in names
    (True, True, False)
    >>> "js/figures/lab.js" in names
    False
    """
    mounted = [(js / widgets.module(name)).resolve() for name in sorted(widgets.named(body))]
    if not mounted:
        return []
    js = js.resolve()
    page = js / "page.js"
    written = set()
    found = graph(page, *mounted, missing=written)
    # the modules the build writes (page.js's table of widgets, the strings i18n.js reads): no
    # source to follow imports in, preloaded where a module of the page imports them
    made = {name for name in (widgets.FILE, strings.FILE) if js / name in written}
    return sorted({*(f"js/{name}" for name in made),
                   *(f"js/{p.relative_to(js).as_posix()}" for p in found if p != page)})
