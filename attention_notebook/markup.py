"""The notebook figures' markup and styles: the site's own templates and stylesheet.

A widget's markup is its figures' HTML as their embed pages render it
(``sitebuild.fragment.figure_markup``); its static HTML, for a notebook read without a
kernel, is the same in the fragment's wrapper with the scoped stylesheet (light and dark
following the reader's system). The live widget's stylesheet is the same scoped sheet, with
the dark rules keyed to a class the widget sets from the notebook's theme instead.

Each is in one of the catalog's languages: the wrapper names it and its direction (the
stylesheet's rules for a language or a direction ask the wrapper), the figures' words and
computed notes are in it.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from urllib.parse import urlencode

from attention import catalog
from sitebuild import fragment as fragments
from sitebuild import site
from sitebuild.stylesheet import stylesheet

# the templates a wheel carries (setup.py copies them), for an install without the repository
PACKAGED = Path(__file__).with_name("site_templates")
DARK = "is-dark"  # the wrapper's class in a dark notebook (set by the widget's module)
# What a notebook resets that the site's stylesheet leaves to the browser's defaults (marimo's
# base styles take the numbers off lists); first, so the site's own rules still win.
HOST_RESETS = (f".{fragments.WRAPPER} ol{{list-style:decimal}}\n"
               f".{fragments.WRAPPER} ul{{list-style:disc}}\n")


def templates() -> Path:
    """Return the site's templates: the repository's, or the copy in the installed package.

    >>> (templates() / "figures" / "fig-004.html").is_file()
    True
    """
    return site.TEMPLATES if (site.TEMPLATES / "figures").is_dir() else PACKAGED


def sheet() -> str:
    """Return the site's stylesheet."""
    return stylesheet(templates())


def language(lang: str) -> str:
    """A widget's language: one of the catalog's, or a ValueError naming them.

    >>> language("zh")
    'zh'
    >>> language("fr")
    Traceback (most recent call last):
    ...
    ValueError: unknown language 'fr'; choose one of en, ar, zh
    """
    return catalog.known(lang)


def markup(embeds: tuple[str, ...], url: dict, lang: str = catalog.SOURCE) -> str:
    """Return the figures' HTML for the state that the URL parameters describe, in ``lang``.

    >>> html = markup(("fig-002",), {"query": "grid"})
    >>> 'id="fig-002"' in html and "0.401" in html
    True
    """
    query = urlencode(url)
    return "\n".join(fragments.figure_markup(e, query, templates=templates(), embed=True, lang=lang)
                     for e in embeds)


def wrapped(html: str, lang: str, sheet: str | None = None, theme: str = "light") -> str:
    """The figures' HTML in the fragment's wrapper, which names their language and direction.

    >>> wrapped("<p>x</p>", "ar")
    '<div class="attention-bench-fragment" lang="ar" dir="rtl">\\n<p>x</p>\\n</div>\\n'
    """
    return fragments.wrap(html, sheet, theme, lang)


def static_html(embeds: tuple[str, ...], url: dict, title: str, lang: str = catalog.SOURCE) -> str:
    """Return the figures' static HTML, wrapped and styled as a fragment (light or dark as the
    reader's system is), in ``lang``, for an output read without a kernel.

    >>> html = static_html(("fig-002",), {"query": "grid"}, "FIG-002")
    >>> html.count("<style>"), "and (prefers-color-scheme: dark)" in html, "0.401" in html
    (1, True, True)
    """
    head = f"<!-- Attention Bench: {title}, computed by the kernel for its last state -->\n"
    return head + wrapped(markup(embeds, url, lang), lang, sheet(), "auto")


def _dark_only(css: str) -> str:
    """Key a scoped stylesheet's rules to the wrapper's dark class.

    >>> _dark_only(".attention-bench-fragment{a: b}\\n.attention-bench-fragment p,.attention-bench-fragment{c: d}")
    '.attention-bench-fragment.is-dark{a: b}\\n.attention-bench-fragment.is-dark p,.attention-bench-fragment.is-dark{c: d}'
    """  # noqa: E501 (a doctest shows its output whole, on one line)
    return re.sub(rf"\.{fragments.WRAPPER}(?![\w-])", f".{fragments.WRAPPER}.{DARK}", css)


@functools.cache
def widget_css() -> str:
    """Return the live widget's stylesheet: the host's resets undone, the scoped light sheet,
    then the dark rules (those the dark theme adds to it) for a wrapper marked dark.

    >>> css = widget_css()
    >>> ".attention-bench-fragment.is-dark" in css and "prefers-color-scheme" not in css
    True
    """
    text = sheet()  # every widget's wrapper names its language and direction (rooted)
    light = fragments.scoped_css(text, "light", rooted=True).splitlines()
    seen = set(light)
    dark = [line for line in fragments.scoped_css(text, "dark", rooted=True).splitlines() if line not in seen]
    return HOST_RESETS + "\n".join(light) + "\n" + _dark_only("\n".join(dark)) + "\n"
