"""Build the whole site: gather every input, render every page in memory, then swap it in."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import jinja2
from markupsafe import Markup

from attention import chapters as quoted, trained_layer, trained_view
from attention.protocol import handout, registry

from . import (answers, compress, download, embeds, hashing, headers, modules, notebook_wheel, offline,
               runtime, strings, wheel, widgets)
from .claims import Ledger, check_all_cited, load_ledger
from .errors import BuildError
from .folder import MARKER, check_out, copy_static, reroot, site_base, swap, trim_js
from .mathml import formulas_in_text
from .render import Page, PageRenderer, Rendered, make_env, read_front_matter, template_error

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
CHAPTERS = ("roles", "mixture", "lab", "bench", "layer")  # reading order; each is templates/chapters/<slug>.md
CDN = f"https://cdn.jsdelivr.net/pyodide/v{runtime.PYODIDE_VERSION}/full/"
RUNTIME_DIR = f"runtime/{runtime.PYODIDE_VERSION}/"  # versioned, so hosts may cache it for a year


@dataclass(frozen=True)
class Inputs:
    """Everything the pages are made from, gathered before anything is rendered."""

    home: Page
    chapters: tuple[Page, ...]
    claims_page: Page
    guide_page: Page
    ledger: Ledger
    toy: dict
    runtime_files: tuple[Path, ...]  # verified Pyodide files to copy; empty when using the CDN
    wheel: Path  # the attention package's wheel, for the browser
    weights: Path  # the trained layer's weights, served beside the wheel (attention.trained_layer)
    notebook_wheel: Path | None  # the package a notebook installs (sitebuild.notebook_wheel), if built
    widgets: dict[str, str]  # each data-widget the templates write: its module (sitebuild.widgets)
    catalog: strings.Catalog  # the site's short strings in its language (sitebuild.strings)


def _chapter(slug: str, source: Path) -> Page:
    """Read a chapter's title and lede from its front matter."""
    meta = read_front_matter(source)
    missing = {"title", "lede"} - meta.keys()
    if missing:
        raise BuildError(f"front matter lacks {', '.join(sorted(missing))}", source, 1)
    return Page(slug, meta["title"], meta["lede"], source, meta.get("nav_title", ""))


def _runtime_files(cdn: bool) -> tuple[Path, ...]:
    """Return the verified runtime files to ship, fetching them once into the cache."""
    if cdn:
        return ()
    try:
        folder = runtime.ensure_runtime(log=lambda line: print(line, flush=True))
    except runtime.RuntimeFetchError as exc:
        raise BuildError(f"cannot get the Python runtime: {exc}", runtime.cache_root()) from None
    return tuple(folder / name for name in runtime.FILES)


def gather(templates: Path = TEMPLATES, cdn: bool = False, lang: str = strings.SOURCE) -> Inputs:
    """Read the ledger, the chapters' front matter, the core's numbers, the runtime and the
    strings of the language (a pseudo-locale, strings.PSEUDO, for the layout tests)."""
    chapters = tuple(_chapter(s, templates / "chapters" / f"{s}.md") for s in CHAPTERS)
    claims = Page("claims", "Claims & sources", "Every claim the chapters make: what kind of "
                  "claim it is, where it comes from, and where it is cited.", None)
    guide = Page("embed", "Embed the figures", "For teachers: put any figure of this site into a "
                 "course page, link students to an exact state, or download a figure’s numbers.",
                 None)
    return Inputs(
        home=_chapter("", templates / "chapters" / "index.md"),
        chapters=chapters,
        claims_page=claims,
        guide_page=guide,
        ledger=load_ledger(templates / "claims.toml"),
        toy={**quoted.toy_context(), "bench": quoted.bench_context()},
        runtime_files=_runtime_files(cdn),
        wheel=wheel.ensure_wheel(),
        weights=_weights(),
        notebook_wheel=notebook_wheel.ensure_notebook_wheel(),
        widgets=widgets.widgets(templates),
        catalog=strings.load(lang),
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


def _scripts(body: str) -> list[str]:
    """Return the modules a page needs: none unless it has a figure to make live or share."""
    if "data-embed-entry=" in body:
        return ["js/offline.js", "js/nav.js", "js/header.js", "js/guide.js"]
    live = 'data-widget="' in body or 'data-embed="' in body
    return ["js/offline.js", "js/nav.js", "js/header.js"] + (["js/page.js"] if live else [])


def _opens_links(body: str) -> bool:
    """True when a figure of the page reads its state from the address (opening.js keeps it
    out of sight until that state is drawn)."""
    return any(f'data-widget="{widget}"' in body for widget in answers.widgets())


def _preloads(templates: Path, body: str) -> list[str]:
    """The modules page.js loads for this page's figures (preloaded), when it runs page.js;
    answers.js not, where the page's head runs it itself (_assets.html): Firefox fired an
    error at a module both preloaded and run as an async script."""
    if "js/page.js" not in _scripts(body):
        return []
    run = {"js/answers.js"} if answers.for_page(body) else set()
    return [m for m in modules.preloads(templates / "static" / "js", body) if m not in run]


def _assets_of(inputs: Inputs, templates: Path, body: str, root: str) -> dict:
    """What a page's head and body need to run its figures (layout.html, embed.html and
    handout.html read them alike): the runtime, the answer tables, the preloads, the CSP."""
    return {"runtime": _runtime_attributes(inputs, root),
            "answers": answers.for_page(body), "near": answers.near_for_page(body),
            "opening": _opens_links(body), "preloads": _preloads(templates, body),
            "csp": csp(not inputs.runtime_files), "asset": lambda name: f"static/{name}"}


def _embed_pages(inputs: Inputs, renderer: PageRenderer, env, nav, templates: Path) -> dict[str, str]:
    """Render site/embed/<id>/ for every embeddable figure."""
    layout, out = env.get_template("embed.html"), {}
    for embed in embeds.registry():
        page = Page(embed.url.rstrip("/"), embed.title, "", None)
        chapter = next(c for c in nav if c.slug == embed.chapter)
        body = renderer.figure_html(embed.figure, page=page, embed=embed.id)
        out[embed.url + "index.html"] = layout.render(
            embed=embed, chapter=chapter, body=Markup(body), root=page.root,
            # embed.js first: it takes theme= off the address (an embed has no site header)
            scripts=["js/embed.js"] + [s for s in _scripts(body) if s not in ("js/nav.js", "js/header.js")],
            **_assets_of(inputs, templates, body, page.root))
        out.update(_moved_pages(embed, env, inputs))
    return out


def _handout_pages(inputs: Inputs, renderer: PageRenderer, env, nav, templates: Path) -> dict[str, str]:
    """Render site/handout/<id>/ for every figure a class handout can print (attention.handout):
    the figure as its embed draws it, then the opening state's numbers and questions."""
    layout, out = env.get_template("handout.html"), {}
    for figure in handout.figures():
        page = Page(f"handout/{figure.id}", f"{figure.number} {figure.title}: a handout", "", None)
        chapter = next(c for c in nav if c.slug == figure.chapter)
        body = renderer.figure_html(figure.number, page=page, embed=figure.id)
        out[f"{page.url}index.html"] = layout.render(
            figure=figure, chapter=chapter, body=Markup(body), root=page.root, h=handout.view(figure.id),
            embed=page,  # the head's title
            scripts=[s for s in _scripts(body) if s not in ("js/nav.js", "js/header.js")],
            **_assets_of(inputs, templates, body, page.root))
    return out


def _moved_pages(embed: embeds.Embed, env, inputs: Inputs) -> dict[str, str]:
    """Render site/embed/<alias>/ for each old id of an embed: a page that sends the reader on
    to embed/<id>/ with the address's state, so no course page's iframe breaks."""
    moved = env.get_template("moved.html")
    return {f"embed/{alias}/index.html": moved.render(
        embed=embed, root=Page(f"embed/{alias}", embed.title, "", None).root,
        build=offline.BUILD_PLACEHOLDER, csp=csp(not inputs.runtime_files),
        asset=lambda name: f"static/{name}") for alias in embed.aliases}


# What the footer may truthfully say of a page's numbers (layout.html's "numbers" line); the
# figure that shows the trained model's weights, by its record
_TRAINED = next(f.number for f in registry.FIGURES if f.widget == "trained")
NUMBERS = {
    "computed": "Every number on this page comes from the <code>attention</code> package: the "
                "values its toy model and heads are set to, and what it computes from them.",
    "trained": "Every number on this page comes from the <code>attention</code> package: the "
               "values its toy model and heads are set to, and what it computes from them. "
               f"{_TRAINED}'s trained-model weights were computed ahead of time by "
               "<code>attention.trained</code>, which runs all-MiniLM-L6-v2's published weights "
               "through the same <code>attention.ops</code>; your browser reads them from a file.",
    "quoted": "Each number on this page is what its claim says it is: quoted from a source, "
              "derived or assumed for the toy, or measured by <code>attention.trained</code> on "
              "a public trained model.",
    "chapters": "Every number in the chapters comes from the <code>attention</code> package.",
}


def numbers_line(page: Page, body: str) -> Markup:
    """The footer's sentence about where this page's numbers come from (empty: it has none).

    >>> numbers_line(Page("claims", "Claims", "", None), "")[:44]
    Markup('Each number on this page is what its claim s')
    >>> numbers_line(Page("404", "Not found", "", None), "")
    Markup('')
    """
    kind = ("quoted" if page.slug == "claims" else "" if page.slug == "404" else
            "chapters" if page.slug == "" else "trained" if 'data-widget="trained"' in body else
            "computed" if re.search(r'class="[^"]*\bnum\b', body) else "")
    return Markup(NUMBERS[kind] if kind else "")


def render_site(inputs: Inputs, templates: Path = TEMPLATES) -> dict[str, str]:
    """Render every page in memory; return {path below the site root: HTML}."""
    env = make_env(templates, inputs.catalog)
    renderer = PageRenderer(env, inputs.ledger)
    nav = (inputs.home, *inputs.chapters)
    for claim in inputs.ledger.claims.values():
        claim.cited_in.clear()  # rendering twice must not list a citation twice
    rendered: list[Rendered] = []
    for page in nav:
        rendered.append(renderer.render(page, {**inputs.toy, "chapters": nav, "root": page.root}))
    for r in rendered:
        for citation in r.citations:
            for claim_id in citation.claims:
                inputs.ledger.claims[claim_id].cited_in.append(citation)
    check_all_cited(inputs.ledger)
    claims_body = env.get_template("claims.html").render(
        ledger=inputs.ledger, root="../", measured=trained_view.measured(),
        formulas=lambda text: Markup(formulas_in_text(text)))
    rendered.append(Rendered(inputs.claims_page, claims_body))
    guide = env.get_template("embed-guide.html").render(
        embeds=embeds.registry(), column_px=embeds.COLUMN_PX, root="../", chapters={c.slug: c for c in nav},
        handouts={f.id for f in handout.figures()},
        notebook=f"{notebook_wheel.FOLDER}/{inputs.notebook_wheel.name}" if inputs.notebook_wheel else None)
    rendered.append(Rendered(inputs.guide_page, guide))
    layout = env.get_template("layout.html")
    out = {}
    for r in rendered:
        i = nav.index(r.page) if r.page in nav else None  # the home page is 0
        out[r.page.url + "index.html"] = layout.render(
            page=r.page,
            body=Markup(r.body),
            chapters=nav,
            root=r.page.root,
            number=i or None,
            prev=nav[i - 1] if i else None,
            next=nav[i + 1] if i is not None and i + 1 < len(nav) else None,
            scripts=_scripts(r.body),
            **_assets_of(inputs, templates, r.body, r.page.root),
            numbers=numbers_line(r.page, r.body),
        )
    out.update(_embed_pages(inputs, renderer, env, nav, templates))
    out.update(_handout_pages(inputs, renderer, env, nav, templates))
    out.update(trained_view.site_files())  # the trained rows the comparison picks from, as JSON
    out["404.html"] = _not_found(inputs, env, nav)
    out[OFFLINE_PAGE] = _not_found(inputs, env, nav, offline=True)
    links = answers.link_states({r.page.url: r.body for r in rendered})  # precomputed answers
    out.update(answers.tables(links, inputs.wheel))  # written as static/answers/*.json
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
        page=page, body=Markup(env.get_template("404.html").render(chapters=nav, root=root,
                                                                    offline=offline)),
        chapters=nav, root=root, number=None, prev=None, next=None, scripts=_scripts(""),
        runtime=_runtime_attributes(inputs, root), answers=(), near=(), csp=csp(not inputs.runtime_files),
        asset=lambda name: f"static/{name}", numbers=numbers_line(page, ""), opening=False,
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
        (tmp / "static" / "js" / strings.FILE).write_text(strings.module(inputs.catalog, templates),
                                                           encoding="utf-8")
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
        offline.write_service_worker(make_env(templates, inputs.catalog), tmp, build_id, immutable,
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
          lang: str = strings.SOURCE) -> dict[str, str]:
    """Build the site into out; on any error out is left exactly as it was.

    `base`: the URL path the site will be served under (see write_site). `lang`: the language
    of its short strings (a pseudo-locale, for the layout tests).
    """
    base = site_base(base)  # a bad one fails before anything is gathered
    inputs = gather(templates, cdn, lang)
    try:
        pages = render_site(inputs, templates)
        write_site(pages, inputs, out, templates, base)
    except (jinja2.TemplateError, strings.MissingString) as exc:  # in a layout or figure, outside any chapter source
        raise template_error(exc) from None
    return pages
