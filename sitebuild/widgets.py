"""The page's widgets, derived from the templates: each ``data-widget="<name>"`` a template
writes is mounted by the module ``static/js/figures/<name>.js``, which exports
``mount(root, store)``. ``static/js/figures/`` holds the figures' controllers and the parts they
hold (and what only they import); the page's plumbing (the store, the runtime, the address)
is ``static/js/`` itself.

The build writes the table page.js imports, ``static/js/widgets.js``, from what the templates
say; a widget named in a template with no module of that name fails the build, naming the
template. Nothing lists widgets by hand (issue 37: whatever lists figures is derived).

>>> from sitebuild.site import TEMPLATES
>>> sorted(widgets(TEMPLATES))[:3]
['fig-002', 'fig-004', 'fig-005']
>>> print(manifest({"lab": "figures/lab.js", "fig-002": "figures/fig-002.js"}))
// Written by the build (sitebuild/widgets.py): each data-widget the templates write, and the
// module that mounts it, loaded when a page has one.
export const WIDGETS = {
  "lab": () => import("./figures/lab.js"),
  "fig-002": () => import("./figures/fig-002.js"),
};
<BLANKLINE>
"""

from __future__ import annotations

import re
from pathlib import Path

from .errors import BuildError

__all__ = ["FILE", "manifest", "module", "named", "widgets"]

FILE = "widgets.js"  # below static/js/
_WIDGET = re.compile(r'data-widget="([^"{}]+)"')


def module(name: str) -> str:
    """The path, under static/js/, of the module that mounts a widget.

    >>> module("fig-002")
    'figures/fig-002.js'
    """
    return f"figures/{name}.js"


def named(html: str) -> set[str]:
    """The widgets a piece of markup names.

    >>> sorted(named('<figure data-widget="bench"><div data-widget="whatif"></div></figure>'))
    ['bench', 'whatif']
    """
    return set(_WIDGET.findall(html))


def widgets(templates: Path) -> dict[str, str]:
    """Each widget the templates name, and its module's path under static/js/."""
    js = templates / "static" / "js"
    found: dict[str, str] = {}
    for path in sorted([*templates.rglob("*.html"), *templates.rglob("*.md")]):
        for name in sorted(named(path.read_text(encoding="utf-8"))):
            if not (js / module(name)).is_file():
                raise BuildError(f'data-widget="{name}" has no module static/js/{module(name)} '
                                 "to mount it", path)
            found[name] = module(name)
    return dict(sorted(found.items()))


def manifest(table: dict[str, str]) -> str:
    """The module page.js imports: the widgets and their modules, loaded on demand."""
    lines = "".join(f'  "{name}": () => import("./{module}"),\n' for name, module in table.items())
    return ("// Written by the build (sitebuild/widgets.py): each data-widget the templates write, and the\n"
            "// module that mounts it, loaded when a page has one.\n"
            f"export const WIDGETS = {{\n{lines}}};\n")
