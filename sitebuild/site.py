"""Build the whole site: gather every input, render every page in memory, then swap it in."""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import jinja2
from markupsafe import Markup

from attention import chapters as quoted, trained_layer, trained_view
from attention.catalog import speaking
from attention.protocol import handout

from . import (answers, compress, download, embeds, hashing, headers, modules, notebook_wheel, offline,
               runtime, strings, wheel, widgets)
from .claims import Ledger, check_all_cited, load_ledger, translated
from .editions import Edition, alternates, gather_edition, numbers_line, sections, with_sections
from .editions import languages as edition_languages
from .errors import BuildError
from .folder import MARKER, check_out, copy_static, reroot, site_base, swap, trim_js
from .mathml import formulas_in_text
from .render import Page, PageRenderer, Rendered, make_env, template_error

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
CDN = f"https://cdn.jsdelivr.net/pyodide/v{runtime.PYODIDE_VERSION}/full/"
RUNTIME_DIR = f"runtime/{runtime.PYODIDE_VERSION}/"  # versioned, so hosts may cache it for a year


@dataclass(frozen=True)
class Inputs:
    """Everything the pages are made from, gathered before anything is rendered."""

    editions: tuple[Edition, ...]  # the root's first
    ledger: Ledger
    toy: dict
    runtime_files: tuple[Path, ...]  # verified Pyodide files to copy; empty when using the CDN
    wheel: Path  # the attention package's wheel, for the browser
    weights: Path  # the trained layer's weights, served beside the wheel (attention.trained_layer)
    notebook_wheel: Path | None  # the package a notebook installs (sitebuild.notebook_wheel), if built
    widgets: dict[str, str]  # each data-widget the templates write: its module (sitebuild.widgets)

    @property
    def root_edition(self) -> Edition:
        """The edition at the site's root (English, or a pseudo-locale for the layout tests)."""
        return self.editions[0]


def _runtime_files(cdn: bool) -> tuple[Path, ...]:
    """Return the verified runtime files to ship, fetching them once into the cache."""
    if cdn:
        return ()
    try:
        folder = runtime.ensure_runtime(log=lambda line: print(line, flush=True))
    except runtime.RuntimeFetchError as exc:
        raise BuildError(f"cannot get the Python runtime: {exc}", runtime.cache_root()) from None
    return tuple(folder / name for name in runtime.FILES)


def gather(templates: Path = TEMPLATES, cdn: bool = False, lang: str = strings.SOURCE,
           editions: tuple[str, ...] | None = None) -> Inputs:
    """Read the ledger, the chapters' front matter, the core's numbers, the runtime and the
    strings of the language at the root (a pseudo-locale, strings.PSEUDO, for the layout
    tests) and of each edition (by default every one, edition_languages(), beside English)."""
    if editions is None:
        editions = tuple(edition_languages(templates)) if lang == strings.SOURCE else ()
    return Inputs(
        editions=(gather_edition(templates, lang, ""), *(gather_edition(templates, e, f"{e}/") for e in editions)),
        ledger=load_ledger(templates / "claims.toml"),
        toy={**quoted.toy_context(), "bench": quoted.bench_context()},
        runtime_files=_runtime_files(cdn),
        wheel=wheel.ensure_wheel(),
        weights=_weights(),
        notebook_wheel=notebook_wheel.ensure_notebook_wheel(),
        widgets=widgets.widgets(templates),
    )


def _weights() -> Path:
    """Return the trained layer's weights file, checked against the hash its address carries."""
    path = trained_layer.WEIGHTS
    if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != trained_layer.WEIGHTS_SHA256:
        raise BuildError("the trained layer's weights are missing or not the ones "
                         "attention.trained_layer.WEIGHTS_SHA256 names (python -m "
                         "attention.trained_layer --write makes them)", path)
    return path


def csp(cdn: bool) -> str:
    """Return the Content Security Policy of every page (see sitebuild/headers.py)."""
    return headers.csp(CDN.split("/pyodide/")[0] if cdn else "")


def wheel_path(inputs: Inputs) -> str:
    """Return the wheel's path below the site root: py/<hash of its bytes>/<its own name>.

    The wheel keeps its file name (Pyodide reads the package's name and version from it), so
    its content hash names the folder instead.
    """
    return f"py/{_file_hash(inputs.wheel, inputs.wheel.stat().st_mtime_ns)}/{inputs.wheel.name}"


@functools.lru_cache(maxsize=8)
def _file_hash(path: Path, mtime_ns: int) -> str:
    """Return the first 16 hex digits of a file's sha256 (cached while the file is unchanged)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _runtime_attributes(inputs: Inputs, root: str) -> dict[str, str]:
    """Return the body data attributes that tell runtime.js where everything is.

    `data-build` is the build's id (see offline.stamp_build): a page, or a script that swaps
    pages in place, compares it with another page's to know whether both came from one build.
    """
    index = root + RUNTIME_DIR if inputs.runtime_files else CDN
    return {
        "runtime-index": index,
        "runtime-wheel": root + wheel_path(inputs),
        "worker": f"{root}static/js/worker.js",  # renamed with its content hash by the build
        "build": offline.BUILD_PLACEHOLDER,
        **({"runtime-bytes": str(size)} if (size := download.runtime_bytes(
            inputs.runtime_files, inputs.wheel)) else {}),  # quoted before a phone downloads it
        # what runtime.js asks the host the length of, as sent (compressed or not), before asking
        **({"runtime-files": " ".join(p.name for p in inputs.runtime_files)} if inputs.runtime_files else {}),
    }


_HEADER_ONLY = ("js/nav.js", "js/header.js", "js/languages.js")  # a page with the site's header runs these


def _scripts(body: str) -> list[str]:
    """Return the modules a page needs: none unless it has a figure to make live or share."""
    if "data-embed-entry=" in body:
        return ["js/offline.js", "js/nav.js", "js/header.js", "js/languages.js", "js/guide.js"]
    live = 'data-widget="' in body or 'data-embed="' in body
    return ["js/offline.js", "js/nav.js", "js/header.js", "js/languages.js"] + (["js/page.js"] if live else [])


def _opens_links(body: str) -> bool:
    """True when a figure of the page reads its state from the address (opening.js keeps it
    out of sight until that state is drawn)."""
    return any(f'data-widget="{widget}"' in body for widget in answers.widgets())


def _preloads(templates: Path, body: str, lang: str) -> list[str]:
    """The modules page.js loads for this page's figures (preloaded), when it runs page.js,
    with the page's language's messages where i18n.js loads them; answers.js not, where the
    page's head runs it itself (_assets.html): Firefox fired an error at a module both
    preloaded and run as an async script."""
    if "js/page.js" not in _scripts(body):
        return []
    run = {"js/answers.js"} if answers.for_page(body) else set()
    found = modules.preloads(templates / "static" / "js", body)
    own = [f"js/{strings.file_of(lang)}"] if f"js/{strings.FILE}" in found else []
    return sorted(m for m in [*found, *own] if m not in run)


def _assets_of(inputs: Inputs, templates: Path, body: str, page: Page, edition: Edition) -> dict:
    """What a page's head and body need to run its figures (layout.html, embed.html and
    handout.html read them alike): the runtime, the answer tables, the preloads, the CSP."""
    return {"runtime": _runtime_attributes(inputs, page.root),
            "answers": answers.for_page(body, edition.folder), "near": answers.near_for_page(body, edition.folder),
            "opening": _opens_links(body), "positions": answers.positions_on_page(body),
            "preloads": _preloads(templates, body, edition.catalog.lang),
            "csp": csp(not inputs.runtime_files), "asset": lambda name: f"static/{name}"}


def _embed_pages(inputs: Inputs, edition: Edition, renderer: PageRenderer, env, templates: Path) -> dict[str, str]:
    """Render <edition>embed/<id>/ for every embeddable figure."""
    layout, out = env.get_template("embed.html"), {}
    for embed in embeds.registry():
        page = Page(embed.url.rstrip("/"), embed.title, "", None, edition=edition.folder)
        chapter = next(c for c in edition.nav if c.slug == embed.chapter)
        body = renderer.figure_html(embed.figure, page=page, embed=embed.id)
        out[page.url + "index.html"] = layout.render(
            embed=embed, chapter=chapter, body=Markup(body), root=page.root, home=page.home,
            alternates=alternates(inputs.editions, page),
            # embed.js first: it takes theme= off the address (an embed has no site header)
            scripts=["js/embed.js"] + [s for s in _scripts(body) if s not in _HEADER_ONLY],
            **_assets_of(inputs, templates, body, page, edition))
        if not edition.folder:
            out.update(_moved_pages(embed, env, inputs))
    return out


def _handout_pages(inputs: Inputs, edition: Edition, renderer: PageRenderer, env, templates: Path) -> dict[str, str]:
    """Render <edition>handout/<id>/ for every figure a class handout can print (attention.handout):
    the figure as its embed draws it, then the opening state's numbers and questions."""
    layout, out = env.get_template("handout.html"), {}
    for figure in handout.figures():
        t = edition.catalog.message
        page = Page(f"handout/{figure.id}", t("handout-page.title", number=figure.number, title=figure.title), "",
                    None, edition=edition.folder)
        chapter = next(c for c in edition.nav if c.slug == figure.chapter)
        body = renderer.figure_html(figure.number, page=page, embed=figure.id)
        out[f"{page.url}index.html"] = layout.render(
            figure=figure, chapter=chapter, body=Markup(body), root=page.root, home=page.home,
            h=handout.view(figure.id), alternates=alternates(inputs.editions, page),
            embed=page,  # the head's title
            scripts=[s for s in _scripts(body) if s not in _HEADER_ONLY],
            **_assets_of(inputs, templates, body, page, edition))
    return out


def _moved_pages(embed: embeds.Embed, env, inputs: Inputs) -> dict[str, str]:
    """Render site/embed/<alias>/ for each old id of an embed: a page that sends the reader on
    to embed/<id>/ with the address's state, so no course page's iframe breaks."""
    moved = env.get_template("moved.html")
    return {f"embed/{alias}/index.html": moved.render(
        embed=embed, root=Page(f"embed/{alias}", embed.title, "", None).root,
        build=offline.BUILD_PLACEHOLDER, csp=csp(not inputs.runtime_files),
        asset=lambda name: f"static/{name}") for alias in embed.aliases}


def _render_edition(inputs: Inputs, edition: Edition, templates: Path,
                    anchors: dict[str, list[str]] | None = None) -> tuple[dict[str, str], list[Rendered]]:
    """Render one edition's pages in memory: {path below the site root: HTML}, and its
    chapters' bodies. A translation's sections take the ids of English's (``anchors``, by
    chapter)."""
    env = make_env(templates, edition.catalog)
    # its claims in its language; each edition's claims page lists its own pages' citations
    ledger = translated(inputs.ledger, templates / f"claims.{edition.catalog.lang}.toml") if edition.folder \
        else inputs.ledger
    for claim in ledger.claims.values():
        claim.cited_in.clear()
    renderer = PageRenderer(env, ledger)
    nav = edition.nav
    rendered: list[Rendered] = []
    for page in nav:
        r = renderer.render(page, {**inputs.toy, "bench": quoted.bench_context(),  # its lexicon's counts
                                   "chapters": nav, "root": page.root, "home": page.home})
        if anchors is not None:
            r.body = with_sections(r.body, anchors[page.slug], page.source)
        rendered.append(r)
    chapters_rendered = list(rendered)
    for r in rendered:
        for citation in r.citations:
            for claim_id in citation.claims:
                ledger.claims[claim_id].cited_in.append(citation)
    check_all_cited(ledger)
    claims = edition.claims_page
    claims_body = env.get_template("claims.html").render(
        ledger=ledger, root=claims.root, home=claims.home, measured=trained_view.measured(),
        formulas=lambda text: Markup(formulas_in_text(text)))
    rendered.append(Rendered(claims, claims_body))
    guide_page = edition.guide_page
    guide = env.get_template("embed-guide.html").render(
        embeds=embeds.registry(), column_px=embeds.COLUMN_PX, root=guide_page.root, home=guide_page.home,
        chapters={c.slug: c for c in nav}, handouts={f.id for f in handout.figures()},
        notebook=f"{notebook_wheel.FOLDER}/{inputs.notebook_wheel.name}" if inputs.notebook_wheel else None)
    rendered.append(Rendered(guide_page, guide))
    layout = env.get_template("layout.html")
    out = {}
    for r in rendered:
        i = nav.index(r.page) if r.page in nav else None  # the home page is 0
        out[r.page.url + "index.html"] = layout.render(
            page=r.page,
            body=Markup(r.body),
            chapters=nav,
            root=r.page.root,
            home=r.page.home,
            alternates=alternates(inputs.editions, r.page),
            number=i or None,
            prev=nav[i - 1] if i else None,
            next=nav[i + 1] if i is not None and i + 1 < len(nav) else None,
            scripts=_scripts(r.body),
            **_assets_of(inputs, templates, r.body, r.page, edition),
            numbers=numbers_line(r.page, r.body, edition.catalog),
        )
    out.update(_embed_pages(inputs, edition, renderer, env, templates))
    out.update(_handout_pages(inputs, edition, renderer, env, templates))
    return out, chapters_rendered


def render_site(inputs: Inputs, templates: Path = TEMPLATES) -> dict[str, str]:
    """Render every page of every edition in memory; return {path below the site root: HTML}."""
    out, bodies, anchors = {}, {}, None
    for edition in inputs.editions:  # the root's first
        with speaking(edition.catalog.lang):  # the core's words (a figure's notes) in its language
            pages, rendered = _render_edition(inputs, edition, templates, anchors)
        out.update(pages)
        if not edition.folder:  # the links that open a state are the same in every edition
            bodies = {r.page.url: r.body for r in rendered}
            anchors = {r.page.slug: sections(r.body) for r in rendered}
    root = inputs.root_edition
    env = make_env(templates, root.catalog)
    out.update(trained_view.site_files())  # the trained rows the comparison picks from, as JSON
    out["404.html"] = _not_found(inputs, env, root.nav)
    out[OFFLINE_PAGE] = _not_found(inputs, env, root.nav, offline=True)
    links = answers.link_states(bodies)  # precomputed answers, in each edition's language
    for edition in inputs.editions:  # written as static/answers/*.json, an edition's below its folder
        out.update(answers.tables(links, inputs.wheel, lang=edition.catalog.lang, folder=edition.folder))
    return out


OFFLINE_PAGE = offline.OFFLINE_PAGE  # what the service worker shows offline for an address it never saved


def _not_found(inputs: Inputs, env, nav, offline: bool = False) -> str:
    """Render site/404.html, served for any missing path, or (offline) site/offline.html, which
    the service worker serves offline for an address it has not saved. Either is shown at any
    depth, so its links start at the root ("/..."; write_site moves them under the site's base
    when it has one)."""
    page = (Page("404", "Not saved for offline reading", "You are offline, and this page is not "
                 "saved on this device.", None) if offline else
            Page("404", "Page not found", "There is no page at this address.", None))
    root = "/"
    return env.get_template("layout.html").render(
        page=page, body=Markup(env.get_template("404.html").render(chapters=nav, root=root, home=root,
                                                                    offline=offline)),
        chapters=nav, root=root, home=root, alternates=(), number=None, prev=None, next=None,
        scripts=_scripts(""),
        runtime=_runtime_attributes(inputs, root), answers=(), near=(), csp=csp(not inputs.runtime_files),
        asset=lambda name: f"static/{name}", numbers=numbers_line(page, "", inputs.root_edition.catalog),
        opening=False,
        preloads=())


def write_site(pages: dict[str, str], inputs: Inputs, out: Path,
               templates: Path = TEMPLATES, base: str = "/") -> None:
    """Write pages, static files and the runtime to a fresh folder, then swap it into place.

    `base` is the URL path the site is served under ("/repo/" on a GitHub Pages project
    site). Only 404.html needs it: it is served at any missing address, at any depth, so it
    cannot use relative addresses, and its root-relative ones must start at the base.
    """
    out = out.resolve()
    check_out(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        copy_static(templates, tmp)
        (tmp / "static" / "js" / widgets.FILE).write_text(trim_js(widgets.manifest(inputs.widgets)),
                                                           encoding="utf-8")
        catalogs = [e.catalog for e in inputs.editions]
        (tmp / "static" / "js" / strings.FILE).write_text(strings.loaders(catalogs), encoding="utf-8")
        for catalog in catalogs:  # one module per language: a page loads its own (i18n.js)
            (tmp / "static" / "js" / strings.file_of(catalog.lang)).write_text(
                strings.module(catalog, templates), encoding="utf-8")
        if inputs.runtime_files:
            runtime.install_runtime(tmp / RUNTIME_DIR)
        wheel_rel = wheel_path(inputs)
        (tmp / wheel_rel).parent.mkdir(parents=True)
        shutil.copy2(inputs.wheel, tmp / wheel_rel)
        # beside it, fetched by the browser's Python only when a reader asks for it (worker.js)
        shutil.copy2(inputs.weights, (tmp / wheel_rel).parent / trained_layer.weights_name())
        if inputs.notebook_wheel:  # at an address that stays: a teacher's install line keeps working
            (tmp / notebook_wheel.FOLDER).mkdir()
            shutil.copy2(inputs.notebook_wheel, tmp / notebook_wheel.FOLDER / inputs.notebook_wheel.name)
        for rel, html in pages.items():
            target = tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(html, encoding="utf-8")
        (tmp / MARKER).write_text("Built by Attention Bench's build.py; replaced on each build.\n")
        # Every file written under static/ or data/ (hashing.HASHED_DIRS) up to here gets a
        # content-hashed name, and every plain reference to it, in pages, modules, stylesheets
        # and JSON, is rewritten to that name: write files and refer to them by plain paths.
        fingerprints = hashing.fingerprint(tmp)
        for anywhere in ("404.html", OFFLINE_PAGE):  # shown at any address: rooted at the base
            if (tmp / anywhere).is_file() and site_base(base) != "/":  # after hashing renamed its files
                (tmp / anywhere).write_text(reroot((tmp / anywhere).read_text(encoding="utf-8"),
                                                   site_base(base)), encoding="utf-8")
        build_id = offline.stamp_build(tmp)
        immutable = sorted(fingerprints.names.values()) + [wheel_rel]
        previous = hashing.keep_previous(out, tmp)  # a tab open on the last build still loads
        offline.write_service_worker(make_env(templates, inputs.root_edition.catalog), tmp, build_id, immutable,
                                     RUNTIME_DIR if inputs.runtime_files else None)
        hashing.write_manifest(tmp, build_id, immutable, previous)
        headers.write_rules(tmp, csp(not inputs.runtime_files))
        compress.compress_site(tmp, known={tmp / RUNTIME_DIR / name: digest  # verified already
                                           for name, digest in runtime.FILES.items()})
        os.chmod(tmp, 0o755)
        swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def build(out: Path, templates: Path = TEMPLATES, cdn: bool = False, base: str = "/",
          lang: str = strings.SOURCE, editions: tuple[str, ...] | None = None) -> dict[str, str]:
    """Build the site into out; on any error out is left exactly as it was.

    `base`: the URL path the site will be served under (see write_site). `lang`: the language
    at its root (a pseudo-locale, for the layout tests); `editions`: the languages built beside
    it, each in its folder (by default, every edition beside English; none beside a pseudo-locale).
    """
    base = site_base(base)  # a bad one fails before anything is gathered
    inputs = gather(templates, cdn, lang, editions)
    try:
        pages = render_site(inputs, templates)
        write_site(pages, inputs, out, templates, base)
    except (jinja2.TemplateError, strings.MissingString) as exc:  # in a layout or figure, outside any chapter source
        raise template_error(exc) from None
    return pages
