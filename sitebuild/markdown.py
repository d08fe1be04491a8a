"""Markdown to HTML with markdown-it-py: headings with anchors, asides, teaching notes, MathML math."""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin

from .mathml import to_mathml

__all__ = ["render_markdown"]

_ANCHOR = re.compile(
    r'<h([23]) id="([^"]+)">(.*?) <a class="header-anchor" href="#\2">¶</a></h\1>'
)


def _english(key: str, **values) -> str:
    """The English catalog's message of key, as markup (the strings when no page's are given)."""
    from . import strings

    return strings.markup(strings.load(), key, **values)


def _heading(match: re.Match, t: Callable) -> str:
    """Rewrite a heading's permalink so screen readers hear what it links to."""
    level, slug, inner = match.groups()
    title = html.unescape(re.sub(r"<[^>]+>", "", inner))  # the heading's text; t escapes it
    return (
        f'<h{level} id="{slug}">{inner} <a class="anchor" href="#{slug}" '
        f'aria-label="{t("site.section-link", title=title)}">#</a></h{level}>'
    )


def _render_aside(self, tokens, idx, options, env) -> str:
    """Render ``::: aside`` containers as <aside> elements."""
    return "<aside class=\"note\">\n" if tokens[idx].nesting == 1 else "</aside>\n"


def _render_teaching(self, tokens, idx, options, env) -> str:
    """Render ``::: teaching`` containers as a folded "Teaching notes" section: what a student
    can do after the chapter, the misconceptions it addresses, a ten-minute activity."""
    if tokens[idx].nesting == 1:
        t = env.get("t", _english)
        return f'<details class="teaching">\n<summary>{t("markdown.teaching")}</summary>\n'
    return "</details>\n"


def _make_parser() -> MarkdownIt:
    """Create the one Markdown parser the chapters are written for."""
    md = MarkdownIt("commonmark", {"html": True, "typographer": True})
    md.enable(["replacements", "smartquotes", "table"])
    anchors_plugin(md, min_level=2, max_level=3, permalink=True)
    container_plugin(md, "aside", render=_render_aside)
    container_plugin(md, "teaching", render=_render_teaching)
    dollarmath_plugin(md, allow_space=True, allow_digits=True, double_inline=False)
    md.add_render_rule(
        "math_inline", lambda self, t, i, o, e: to_mathml(t[i].content, display=False)
    )
    md.add_render_rule(
        "math_block",
        lambda self, t, i, o, e: '<div class="equation">'
        + to_mathml(t[i].content, display=True)
        + "</div>\n",
    )
    return md


_PARSER = _make_parser()


def render_markdown(text: str, t: Callable = _english) -> str:
    """Render chapter Markdown (already through Jinja) to an HTML fragment; ``t`` says the
    page's strings (a heading's link, the teaching notes' title), in English when not given.

    >>> render_markdown("## Mix values\\n\\nThe sum $o$ is a vector.")  # doctest: +ELLIPSIS
    '<h2 id="mix-values">Mix values <a class="anchor" href="#mix-values" ...>#</a></h2>\\n<p>The sum <math display="inline"><mrow><mi>o</mi></mrow></math> is a vector.</p>\\n'
    """  # noqa: E501 (a doctest shows its output whole, on one line)
    return _ANCHOR.sub(functools.partial(_heading, t=t), _PARSER.render(text, {"t": t}))
