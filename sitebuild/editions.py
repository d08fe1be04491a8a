"""The site's editions: English at its root and, for each language with a catalog
(attention/strings/<lang>.toml) and a folder of chapter sources (templates/chapters/<lang>/),
the same pages in that language below its folder (zh/…, ar/…). Each chapter of an edition
keeps English's sections, in order, at English's addresses."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from attention.protocol import registry

from . import strings
from .errors import BuildError
from .render import Page, read_front_matter

__all__ = ["CHAPTERS", "Edition", "alternates", "chapter", "gather_edition", "languages", "numbers_line", "sections",
           "with_sections"]

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
CHAPTERS = ("roles", "mixture", "lab", "bench", "layer")  # reading order; each is templates/chapters/<slug>.md


@dataclass(frozen=True)
class Edition:
    """The pages of one language, and its short strings: English at the site's root, and an
    edition for each language with a catalog and chapter sources (templates/chapters/<lang>/),
    in its folder (zh/…, ar/…)."""

    catalog: strings.Catalog
    folder: str  # "" at the root, "zh/" for an edition
    home: Page
    chapters: tuple[Page, ...]
    claims_page: Page
    guide_page: Page

    @property
    def nav(self) -> tuple[Page, ...]:
        """The home page and the chapters, in reading order."""
        return (self.home, *self.chapters)


def chapter(slug: str, source: Path, folder: str = "") -> Page:
    """Read a chapter's title and lede from its front matter."""
    meta = read_front_matter(source)
    missing = {"title", "lede"} - meta.keys()
    if missing:
        raise BuildError(f"front matter lacks {', '.join(sorted(missing))}", source, 1)
    return Page(slug, meta["title"], meta["lede"], source, meta.get("nav_title", ""), folder)


def languages(templates: Path = TEMPLATES) -> list[str]:
    """The languages of the editions: each with a catalog and a folder of chapter sources.

    >>> languages()
    ['ar', 'zh']
    """
    return [lang for lang in strings.languages() if lang != strings.SOURCE
            and (templates / "chapters" / lang).is_dir()]


def gather_edition(templates: Path, lang: str, folder: str) -> Edition:
    """Gather one language's pages: its chapter sources' front matter, its catalog's page titles."""
    catalog = strings.load(lang)
    sources = templates / "chapters" / folder
    t = catalog.message
    return Edition(
        catalog=catalog, folder=folder,
        home=chapter("", sources / "index.md", folder),
        chapters=tuple(chapter(s, sources / f"{s}.md", folder) for s in CHAPTERS),
        claims_page=Page("claims", t("site.claims-title"), t("site.claims-lede"), None, edition=folder),
        guide_page=Page("embed", t("site.guide-title"), t("site.guide-lede"), None, edition=folder),
    )


def alternates(editions: tuple[Edition, ...], page: Page) -> list[dict]:
    """The same page in every edition (its ``hreflang`` links and the language switch): each
    one's language tag, name in its own language, folder ("" at the root) and path below the
    site root. The folders also tell nav.js which addresses are another edition's (its pages
    load anew, in their own language: never swapped into this one)."""
    out = []
    for e in editions:
        t = e.catalog.message
        out.append({"tag": e.catalog.tag, "name": t("site.language-name"), "dir": e.catalog.dir, "folder": e.folder,
                    "url": e.folder + page.url[len(page.edition):], "current": e.folder == page.edition})
    return out


_SECTION = re.compile(r'<h([23]) id="([^"]+)">')


def sections(body: str) -> list[str]:
    """The ids of a chapter's sections (its h2 and h3), in order.

    >>> sections('<h2 id="mix">Mix <a class="anchor" href="#mix">#</a></h2><h3 id="a-b">A b</h3>')
    ['mix', 'a-b']
    """
    return [m.group(2) for m in _SECTION.finditer(body)]


def with_sections(body: str, ids: list[str], source: Path) -> str:
    """A translated chapter with English's section ids: an edition's sections, in English's
    order, keep its addresses (#how-the-bench-is-built), so a figure's link to a section, a
    link from a course page and the language switch's #… land in every language.

    >>> with_sections('<h2 id="混合">混合 <a class="anchor" href="#混合">#</a></h2>', ["mix"], Path("x"))
    '<h2 id="mix">混合 <a class="anchor" href="#mix">#</a></h2>'
    """
    own = sections(body)
    if len(own) != len(ids):
        raise BuildError(f"{len(own)} sections, where the English chapter has {len(ids)}: a translation "
                         "keeps every heading, in order", source, 1)
    for mine, english in zip(own, ids, strict=True):
        body = body.replace(f' id="{mine}">', f' id="{english}">', 1).replace(f'href="#{mine}"', f'href="#{english}"')
    return body


# the figure that shows the trained model's weights, by its record (the footer's numbers line)
_TRAINED = next(f.number for f in registry.FIGURES if f.widget == "trained")


def numbers_line(page: Page, body: str, catalog: strings.Catalog | None = None) -> Markup:
    """The footer's sentence about where this page's numbers come from (empty: it has none).

    >>> numbers_line(Page("claims", "Claims", "", None), "")[:44]
    Markup('Each number on this page is what its claim s')
    >>> numbers_line(Page("404", "Not found", "", None), "")
    Markup('')
    """
    kind = ("quoted" if page.slug == "claims" else "" if page.slug == "404" else
            "chapters" if page.slug == "" else "trained" if 'data-widget="trained"' in body else
            "computed" if re.search(r'class="[^"]*\bnum\b', body) else "")
    t = functools.partial(strings.markup, catalog or strings.load())
    said = {"quoted": lambda: t("site.numbers-quoted-html"), "chapters": lambda: t("site.numbers-chapters-html"),
            "trained": lambda: t("site.numbers-trained-html", figure=_TRAINED),
            "computed": lambda: t("site.numbers-computed-html")}
    return said[kind]() if kind else Markup("")
