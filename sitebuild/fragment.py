"""Write one figure's static HTML, for course pages that accept no frames.

A fragment is pasted into someone else's page, so it brings its own styles and keeps to
itself: the figure sits in a ``<div class="attention-bench-fragment">`` with a ``<style>``
in which every selector of the site's stylesheet is scoped to that wrapper (``:root`` and
``body`` become the wrapper itself). Nothing in it can restyle the host page's body,
headings or tables. Its colours are the light palette unless asked otherwise, so it matches
a white course page whatever the reader's system setting.

A fragment is in one of the catalog's languages (``lang``, English by default): its words,
its computed notes and its credit, with the language and direction on its wrapper and its
links to that edition's pages (zh/bench/…).
"""

from __future__ import annotations

import functools
import re
from html import escape
from pathlib import Path
from urllib.parse import parse_qsl

from markupsafe import Markup

from attention.catalog import known, speaking
from attention.protocol import registry as figure_registry

from . import strings
from .claims import load_ledger
from .embeds import registry
from .errors import BuildError
from .render import Page, PageRenderer, make_env
from .site import TEMPLATES
from .stylesheet import stylesheet

WRAPPER = "attention-bench-fragment"
THEMES = ("light", "dark", "auto")
_DARK = re.compile(r"prefers-color-scheme:\s*dark")
# Rules that only make sense on the site's own pages: wide figures breaking out of the
# reading column by the viewport's width would push out of a host page's column.
_SITE_ONLY = re.compile(r"100vw")
# Presentation attributes for SVG parts whose look must survive a host that strips <style>.
_FALLBACK_FILLS = {"bar-track": "--bar-track", "bar-fill": "--bar-fill"}
# A rule for a language or a direction ([dir="rtl"] …, :lang(zh)), which a wrapper that carries
# its own lang and dir answers itself
_OWN = re.compile(r'(\[dir="?\w+"?\]|:lang\([\w-]+\))\s*')


def catalog(lang: str = strings.SOURCE) -> strings.Catalog:
    """The catalog a fragment speaks: one of the catalog's languages, or a clear error.

    >>> catalog("zh").tag
    'zh-Hans'
    >>> catalog("fr")
    Traceback (most recent call last):
    ...
    sitebuild.errors.BuildError: unknown language 'fr'; choose one of en, ar, zh
    """
    try:
        known(lang)
    except ValueError as exc:
        raise BuildError(str(exc)) from None
    return strings.load(lang)


def edition(lang: str) -> str:
    """The folder of a language's edition below the site's root ("" for English).

    >>> edition("en"), edition("zh")
    ('', 'zh/')
    """
    return "" if lang == strings.SOURCE else f"{lang}/"


def _split_top(text: str, sep: str = ",") -> list[str]:
    """Split at sep outside parentheses: selectors of one rule.

    >>> _split_top("a, b:is(c, d), e")
    ['a', 'b:is(c, d)', 'e']
    """
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def parse_css(css: str) -> list[tuple[str, object]]:
    """Parse a plain stylesheet into [(prelude, declarations or nested rules)].

    >>> parse_css("a { x: 1 } @media print { b { y: 2 } }")
    [('a', 'x: 1'), ('@media print', [('b', 'y: 2')])]
    """
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules, i = [], 0
    while True:
        brace = css.find("{", i)
        if brace < 0:
            return rules
        prelude = css[i:brace].strip()
        if prelude.startswith("@"):
            depth, j = 1, brace + 1
            while depth:
                depth += (css[j] == "{") - (css[j] == "}")
                j += 1
            rules.append((prelude, parse_css(css[brace + 1:j - 1])))
            i = j
        else:
            end = css.index("}", brace)
            rules.append((prelude, css[brace + 1:end].strip()))
            i = end + 1


def scope_selector(selector: str, classes: set[str] | None = None, rooted: bool = False) -> str | None:
    """Scope one selector to the fragment's wrapper, or None when it has no place there;
    rooted: the wrapper carries its language and direction, so a rule for a language or a
    direction asks the wrapper itself.

    >>> [scope_selector(s) for s in (":root", "body", "h1", "*::before", ".figure caption")]
    ['.attention-bench-fragment', '.attention-bench-fragment', '.attention-bench-fragment h1', \
'.attention-bench-fragment *::before', '.attention-bench-fragment .figure caption']
    >>> scope_selector(".pager a", {"figure"}) is None
    True
    >>> [scope_selector(s, rooted=True) for s in ('[dir="rtl"] code', ":lang(ar) body", ":lang(zh)")]
    ['.attention-bench-fragment[dir="rtl"] code', '.attention-bench-fragment:lang(ar)', \
'.attention-bench-fragment:lang(zh)']
    """
    wrapper = f".{WRAPPER}"
    own = _OWN.match(selector) if rooted else None
    if own:
        # kept whole: the few rules for a language or direction, some naming any of several
        # classes (:is(.num, .share-output, …)), which the cut by classes would drop
        inner = scope_selector(selector[own.end():] or ":root")
        return None if inner is None else wrapper + own.group(1) + inner[len(wrapper):]
    if classes is not None and any(c not in classes for c in re.findall(r"\.([\w-]+)", selector)):
        return None  # it styles something this fragment does not contain
    head = re.match(r"(:root|html|body)(?![\w-])", selector)
    if head:
        rest = selector[head.end():]
        if rest[:1] in (".", "[", ":"):
            return None  # html.embedded, body.embed: the site's own page classes
        return wrapper + rest
    return f"{wrapper} {selector}"


def _scoped_rules(rules, theme: str, classes: set[str] | None, rooted: bool = False) -> list[str]:
    """Write the rules back with every selector scoped; dark blocks follow the theme."""
    out = []
    for prelude, body in rules:
        if prelude.startswith("@"):
            inner = _scoped_rules(body, theme, classes, rooted)
            if _DARK.search(prelude) and theme != "auto":
                out += inner if theme == "dark" else []
            elif inner:
                out.append(f"{prelude}{{{''.join(inner)}}}")
            continue
        if _SITE_ONLY.search(body):
            continue
        selectors = [scope_selector(s, classes, rooted) for s in _split_top(prelude)]
        selectors = [s for s in selectors if s]
        if selectors:
            declarations = re.sub(r"\s+", " ", body)
            if any(s == f".{WRAPPER}" for s in selectors):  # the host page keeps its background
                declarations = ";".join(d for d in declarations.split(";")
                                        if not d.strip().startswith("background"))
            out.append(f"{','.join(selectors)}{{{declarations}}}")
    return out


def scoped_css(css: str, theme: str = "light", classes: set[str] | None = None, rooted: bool = False) -> str:
    """Return the stylesheet scoped to the fragment's wrapper, for one theme (rooted: the
    wrapper carries its language and direction, scope_selector).

    >>> scoped_css(":root { --bg: #fff } body { background: var(--bg); color: red } h1 { x: 1 }")
    '.attention-bench-fragment{--bg: #fff}\\n.attention-bench-fragment{ color: red}\\n.attention-bench-fragment h1{x: 1}'
    """  # noqa: E501 (a doctest shows its output whole, on one line)
    if theme not in THEMES:
        raise BuildError(f"unknown theme {theme!r}; choose one of {', '.join(THEMES)}")
    return "\n".join(_scoped_rules(parse_css(css), theme, classes, rooted))


def light_palette(css: str) -> dict[str, str]:
    """Return the custom properties the stylesheet sets on :root outside any media block.

    >>> light_palette(":root { --a: #fff; --b: red } @media x { :root { --a: #000 } }")
    {'--a': '#fff', '--b': 'red'}
    """
    found = {}
    for prelude, body in parse_css(css):
        if not prelude.startswith("@") and ":root" in _split_top(prelude):
            found.update(dict(re.findall(r"(--[\w-]+)\s*:\s*([^;]+?)\s*(?:;|$)", body)))
    return found


def _with_fallbacks(html: str, palette: dict[str, str]) -> str:
    """Give the bars' rectangles fill attributes (CSS still wins where it is kept)."""
    for name, var in _FALLBACK_FILLS.items():
        if var in palette:
            html = html.replace(f'class="{name}"', f'class="{name}" fill="{palette[var]}"')
    return html


def figure_markup(embed_id: str, url: str = "", site_url: str = "", templates: Path = TEMPLATES,
                  embed: bool = False, lang: str = strings.SOURCE) -> str:
    """Return one figure's HTML in the state that URL parameters describe, without a wrapper
    or styles: the markup a fragment wraps, and the notebook widget's (embed=True renders it
    as its embed page does, the figure alone, e.g. the working table without the quiz); in
    ``lang``, its links to that edition's pages.

    >>> html = figure_markup("fig-002", "query=grid")
    >>> html.startswith("<figure") and "0.401" in html and "<style>" not in html
    True
    """
    words = catalog(lang)
    with speaking(lang):  # the core's words (a figure's notes, a parameter's notice) in lang
        html = _figure_markup(embed_id, url, site_url + edition(lang), templates, embed, words)
    return _with_fallbacks(html, light_palette(stylesheet(templates)))


def _figure_markup(embed_id: str, url: str, site_url: str, templates: Path, embed: bool,
                   words: strings.Catalog) -> str:
    """figure_markup in the language spoken now; site_url: its edition's address."""
    embeds = {e.id: e for e in registry()}
    if not (record := figure_registry.embed(embed_id)):  # its id, or an embed id it had before
        raise BuildError(f"unknown figure {embed_id!r}; choose one of {', '.join(embeds)}")
    embed_id, figure = record.embed, record.state  # and the live state its URL sets, if any
    params = dict(parse_qsl(url.lstrip("?"), keep_blank_values=True))
    state, notices = figure_registry.from_url(figure, params) if figure else ({}, [])
    if notices or (params and not figure):
        raise BuildError(" ".join(notices) or f"{embed_id} takes no parameters")
    renderer = PageRenderer(make_env(templates, words), load_ledger(templates / "claims.toml"))
    html = renderer.figure_html(embeds[embed_id].figure, state, page=Page("", "", "", None),
                                embed=embed_id if embed else "")
    html = html.replace('href="claims/', f'href="{site_url}claims/')
    html = re.sub(r'<p class="link-note">.*?</p>', "", html)  # a fragment shows its own state
    # A fragment has no controls: words that only tell how to use them go (review 4 found
    # "select any other stopcock" beside a drawing that cannot be clicked), and a link to a
    # section of the figure's own chapter points at the site.
    html = re.sub(r'<span class="live-only">.*?</span>', "", html, flags=re.S)
    for place in ("how-the-bench-is-built", "bench-lexicon"):
        html = html.replace(f'href="#{place}"', f'href="{site_url}bench/#{place}"')
    # and a link to another chapter (the layer's to the bench's word list) from the site too:
    # "../bench/" means nothing on the page a fragment is pasted into
    return html.replace('href="../', f'href="{site_url}')


def fragment(embed_id: str, url: str = "", site_url: str = "", css: bool = True,
             templates: Path = TEMPLATES, theme: str = "light", lang: str = strings.SOURCE) -> str:
    """Return the static HTML of one figure in the state that URL parameters describe,
    wrapped with its own scoped styles (css=False leaves the styles out), in ``lang``.

    >>> html = fragment("fig-002", "query=grid")
    >>> "0.401" in html and "[0.802, 1.198]" in html and "<style>" in html
    True
    """
    html = figure_markup(embed_id, url, site_url, templates, lang=lang)
    record = figure_registry.embed(embed_id)  # known by now: its id, or one it had before
    with speaking(lang):
        title, embed_id = record.title, record.embed
        html += credit(record, url, site_url, lang)
    head = f"<!-- Attention Bench: {title} ({embed_id}), computed at build time -->\n"
    # English keeps the wrapper it always had; another language names itself and its direction
    return head + wrap(html, stylesheet(templates) if css else None, theme,
                       None if lang == strings.SOURCE else lang)


def credit(record, url: str = "", site_url: str = "", lang: str = strings.SOURCE) -> str:
    """The line under a fragment that says where it comes from and links back to the figure,
    live, in the state the fragment shows (review 4: a pasted figure carried no credit), on
    the site's edition in ``lang`` (its words in it too, with the figure's title said in the
    language spoken now).

    >>> from attention.protocol.registry import embed
    >>> credit(embed("fig-002"), "query=grid", "https://example.org/")
    '<p class="fragment-credit"><small>From <a href="https://example.org/mixture/?query=grid#fig-002">Attention Bench</a>, FIG-002 (Weights choose a mixture). Open it there to change it.</small></p>'
    """  # noqa: E501 (a doctest shows its output whole, on one line)
    t = functools.partial(strings.markup, catalog(lang))
    query = url.lstrip("?")
    href = f"{site_url}{edition(lang)}{record.chapter}/{'?' + escape(query) if query else ''}#{record.id}"
    site = Markup(f'<a href="{href}">') + t("site.name") + Markup("</a>")
    said = t("fragment.credit-html", site=site, number=record.number, title=record.title)
    return f'<p class="fragment-credit"><small>{said}</small></p>'


def wrap(html: str, sheet: str | None, theme: str = "light", lang: str | None = None) -> str:
    """Put figures' HTML in the fragment's wrapper, with the stylesheet scoped to it and cut
    to the classes the HTML uses (sheet=None: no styles); with ``lang``, the wrapper names
    its language and direction (dir="rtl" for Arabic), and the rules for them ask it.

    >>> wrap('<p class="a">x</p>', ".a { b: c } .z { y: x }")
    '<div class="attention-bench-fragment">\\n<style>\\n.attention-bench-fragment .a{b: c}\\n</style>\\n<p class="a">x</p>\\n</div>\\n'
    >>> wrap("<p>x</p>", None, lang="ar")
    '<div class="attention-bench-fragment" lang="ar" dir="rtl">\\n<p>x</p>\\n</div>\\n'
    """  # noqa: E501 (a doctest shows its output whole, on one line)
    classes = {c for attr in re.findall(r'class="([^"]*)"', html) for c in attr.split()}
    style = (f"<style>\n{scoped_css(sheet, theme, classes, rooted=lang is not None)}\n</style>\n"
             if sheet is not None else "")
    words = catalog(lang) if lang is not None else None
    own = f' lang="{words.tag}" dir="{words.dir}"' if words else ""
    return f'<div class="{WRAPPER}"{own}>\n{style}{html}\n</div>\n'
