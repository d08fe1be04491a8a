"""templates/static/js/dom.js: the one way the page's modules write what a reader sees.

A module renders by cloning a part the build wrote once (part, syncList), making the few
elements that exist only with JavaScript (html, svg), and writing texts, attributes and
classes only when they change (setText, setAttr, setClass, setHidden, dropAttrs): never
innerHTML, and no second style of direct writes beside the helpers.
"""

from __future__ import annotations

import re

import pytest

from sitebuild.site import TEMPLATES

JS = TEMPLATES / "static" / "js"

# What a module may not do itself: dom.js does it for everyone.
DIRECT = {
    "markup": re.compile(r"\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML"),
    "element": re.compile(r"\bcreateElement(NS)?\("),
    "text": re.compile(r"\.textContent\s*=(?!=)"),
    "attribute": re.compile(r"\.(setAttribute|removeAttribute)\("),
    "class": re.compile(r"\.classList\.toggle\("),
}

# Writes that render nothing on the page, each with its reason.
ALLOWED = {
    # the SVG download: a detached copy of the drawing, styled with what the page computed
    ("share.js", "attribute"),
    # a parsed page about to be swapped in: its addresses made absolute before it is adopted
    ("nav.js", "attribute"),
    # a parsed page: a <base> so its relative addresses resolve at its own URL
    ("swap.js", "element"),
}


def modules() -> list[str]:
    return sorted(p.relative_to(JS).as_posix() for p in JS.rglob("*.js") if p.name != "dom.js")


@pytest.mark.parametrize("module", modules())
def test_each_module_renders_through_the_dom_helpers(module):
    text = (JS / module).read_text(encoding="utf-8")
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)  # comments may name them
    found = {kind for kind, pattern in DIRECT.items() if pattern.search(code)}
    assert {kind for kind in found if (module, kind) not in ALLOWED} == set()


def test_the_allowed_writes_are_still_there():
    """An exception that is no longer needed is taken off the list."""
    for module, kind in ALLOWED:
        assert DIRECT[kind].search((JS / module).read_text(encoding="utf-8")), (module, kind)
