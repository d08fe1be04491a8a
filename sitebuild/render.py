"""Render pages: Jinja over the chapter sources, then Markdown, then the layout."""

from __future__ import annotations

import dataclasses
import functools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from attention.protocol import registry
from attention.numbers import PLACES, spelled

from . import embeds, runtime, strings
from .claims import Citation, Ledger
from .errors import BuildError
from .lint import check_no_typed_numbers
from .markdown import render_markdown

_BETWEEN_LINES = re.compile(r">[ \t]*\n\s*<")
FRONT_MATTER = re.compile(r"\A\+\+\+\n(.*?)\n\+\+\+\n", re.S)
_PLACEHOLDER = re.compile(r"<!--block:(\d+)-->")
_HEADING = re.compile(r'<h2 id="[^"]+">(.*?) <a class="anchor"')
_CITE_ID = re.compile(r'id="(cite-\d+)"')


@dataclass(frozen=True)
class Page:
    """One page of the site and where it comes from."""

    slug: str  # "" for the home page
    title: str
    lede: str
    source: Path | None  # a Markdown source, or None for a page made from data
    nav_title: str = ""
    edition: str = ""  # the folder of its language's edition ("zh/"); "" for English, at the root

    @property
    def url(self) -> str:
        """Return the page's path below the site root, e.g. "roles/" or "zh/roles/"."""
        return self.edition + (f"{self.slug}/" if self.slug else "")

    @property
    def root(self) -> str:
        """Return the relative path from this page back to the site root (the files every
        edition shares: the styles, modules, runtime and answers).

        >>> Page("roles", "", "", None, edition="zh/").root, Page("", "", "", None).root
        ('../../', '')
        """
        return "../" * self.url.count("/")

    @property
    def home(self) -> str:
        """Return the relative path from this page to its edition's home (its links to pages).

        >>> Page("roles", "", "", None, edition="zh/").home, Page("roles", "", "", None).home
        ('../../zh/', '../')
        """
        return self.root + self.edition


@dataclass
class Rendered:
    """A page's finished HTML fragment and what it cited."""

    page: Page
    body: str
    citations: list[Citation] = field(default_factory=list)


class _SourceLoader(jinja2.FileSystemLoader):
    """Load templates, blanking a Markdown source's front matter so line numbers stay true."""

    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        return FRONT_MATTER.sub(lambda m: "\n" * m.group(0).count("\n"), source), filename, uptodate


def _bytecode_cache() -> jinja2.FileSystemBytecodeCache | None:
    """Jinja's own cache of compiled templates beside the runtime's (compiling is most of a
    build's time); None where that folder cannot be made."""
    folder = runtime.cache_root() / "jinja"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(str(folder))


def make_env(templates: Path, catalog: strings.Catalog | None = None) -> jinja2.Environment:
    """Create the one Jinja environment for layouts, figures and chapter sources, in the
    language of ``catalog`` (English when not given): ``t("key", name=value)`` says a string
    of it, ``lang`` and ``dir`` are its page's."""
    env = jinja2.Environment(
        loader=_SourceLoader(templates),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html"], default_for_string=False),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        # compiled templates, keyed by each source's checksum: a changed template recompiles
        bytecode_cache=_bytecode_cache(),
    )
    catalog = catalog or strings.load()
    env.globals["t"] = functools.partial(strings.markup, catalog)
    env.globals["lang"], env.globals["dir"] = catalog.tag, catalog.dir
    env.globals["embeds"] = {e.id: e for e in embeds.registry()}
    env.globals["places"] = PLACES
    env.globals["exports"] = set(registry.EXPORTS)
    env.filters["spelled"] = functools.partial(spelled, lang=catalog.lang)
    env.filters["latex_vector"] = lambda s: "[" + ",".join(s["text"][1:-1].split(", ")) + "]"
    env.filters["bmatrix"] = lambda rows: (
        r"\begin{bmatrix}" + r"\\".join("&".join(r["text"][1:-1].split(", ")) for r in rows)
        + r"\end{bmatrix}"
    )
    return env


def read_front_matter(path: Path) -> dict:
    """Return the TOML front matter (between +++ lines) of a Markdown source."""
    text = path.read_text(encoding="utf-8")
    match = FRONT_MATTER.match(text)
    if not match:
        raise BuildError("a chapter source must start with +++ TOML front matter +++", path, 1)
    try:
        return tomllib.loads(match.group(1))
    except tomllib.TOMLDecodeError as exc:
        raise BuildError(f"malformed front matter: {exc}", path, 2) from None


def _innermost_template(exc: BaseException) -> tuple[str, int] | None:
    """Return (file, line) of the deepest template frame in an exception's traceback."""
    found, tb = None, exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith((".html", ".md", ".js")):
            found = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return found


def template_error(exc: Exception, fallback: Path | None = None) -> BuildError:
    """Turn an error raised while rendering into a BuildError at the template file and line."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return BuildError(f"template syntax error: {exc.message}", exc.filename or fallback,
                          exc.lineno)
    message = getattr(exc, "message", None) or str(exc)
    if isinstance(exc, jinja2.TemplateNotFound):
        message = f"template not found: {exc.name}"
    where = _innermost_template(exc)
    return BuildError(message, *where) if where else BuildError(message, fallback)


class PageRenderer:
    """Render Markdown pages, keeping count of citation anchors and block placeholders."""

    def __init__(self, env: jinja2.Environment, ledger: Ledger):
        self.env, self.ledger = env, ledger
        self.figures = {f.number: f.data for f in registry.FIGURES}  # a figure's number: its data builder
        self._blocks: list[str] = []
        self._citations: list[Citation] = []
        self._page: Page | None = None

    def _block(self, html: str) -> str:
        """Park finished HTML behind a comment that Markdown passes through untouched."""
        self._blocks.append(html)
        return f"\n\n<!--block:{len(self._blocks) - 1}-->\n\n"

    def cite(self, *claim_ids: str) -> Markup:
        """Return links to claims, recording this place as citing each of them."""
        if not claim_ids:
            raise LookupError("cite() needs at least one claim ID")
        claims = [self.ledger.get(cid) for cid in claim_ids]
        anchor = f"cite-{len(self._citations) + 1}"
        citation = Citation(self._page.url, self._page.title, anchor, claim_ids)
        self._citations.append(citation)
        links = ", ".join(
            f'<a href="{self._page.home}claims/#{c.id}" title="{escape(c.kind_label)}">{c.id}</a>'
            for c in claims
        )
        return Markup(f'<span class="cites" id="{anchor}">{links}</span>')

    def sources(self, label: str, *claim_ids: str) -> str:
        """Return a section's source line: what it rests on and the claims it makes."""
        return self._block(f'<p class="source">{escape(label)} {self.cite(*claim_ids)}</p>')

    def figure(self, figure_id: str, state: dict | None = None) -> str:
        """Return a figure rendered at build time from the core's data for a state."""
        return self._block(self.figure_html(figure_id, state))

    def figure_data(self, figure_id: str, state: dict | None = None) -> dict:
        """Return a figure's data for a state (its default: the one its chapter draws), for
        the chapter's words to quote."""
        if figure_id not in self.figures:
            raise LookupError(f"unknown figure ID {figure_id!r}; known: {', '.join(self.figures)}")
        return self.figures[figure_id](**(state or {}))

    def figure_html(self, figure_id: str, state: dict | None = None, page: Page | None = None,
                    embed: str = "") -> str:
        """Render one figure's HTML; for an embed page (embed=id) its citations are not
        recorded, since the chapter is the place that cites them."""
        if page is not None:
            self._page, self._citations = page, []
        data = self.figure_data(figure_id, state)
        template = self.env.get_template(f"figures/{figure_id.lower()}.html")
        html = template.render(fig=data, root=self._page.root, home=self._page.home, cite=self.cite, embed=embed)
        return _BETWEEN_LINES.sub("><", html)  # the template's line breaks between tags

    def render(self, page: Page, context: dict) -> Rendered:
        """Render one Markdown page to an HTML fragment, or raise BuildError with file and line."""
        self._page, self._blocks, self._citations = page, [], []
        path = page.source
        check_no_typed_numbers(path.read_text(encoding="utf-8"), path)
        helpers = {"cite": self.cite, "sources": self.sources, "figure": self.figure,
                   "figure_data": self.figure_data}
        name = path.relative_to(self.env.loader.searchpath[0]).as_posix()
        try:
            markdown = self.env.get_template(name).render(**context, **helpers, page=page)
        except (jinja2.TemplateError, LookupError, ValueError, TypeError) as exc:
            raise template_error(exc, path) from None
        html = render_markdown(markdown, self.env.globals["t"])  # its headings' links in the page's language
        body = _PLACEHOLDER.sub(lambda m: self._blocks[int(m.group(1))], html)
        return Rendered(page, body, self._with_sections(body))

    def _with_sections(self, body: str) -> list[Citation]:
        """Return this page's citations, each labelled with the heading it sits under."""
        section, sections = "", {}
        for match in re.finditer(f"{_HEADING.pattern}|{_CITE_ID.pattern}", body):
            if match.group(1) is not None:
                section = re.sub(r"<[^>]+>", "", match.group(1))
            else:
                sections[match.group(2)] = section
        return [
            dataclasses.replace(c, section=sections.get(c.anchor, "")) for c in self._citations
        ]
