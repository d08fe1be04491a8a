"""Build the whole site: gather every input, render every page in memory, then swap it in."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from attention import figures

from .claims import Ledger, check_all_cited, load_ledger
from .errors import BuildError
from .render import Page, PageRenderer, Rendered, make_env, read_front_matter

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
CHAPTERS = ("roles", "mixture")  # reading order; each is templates/chapters/<slug>.md
FIGURES = {"FIG-001": figures.fig_001, "FIG-002": figures.fig_002}


@dataclass(frozen=True)
class Inputs:
    """Everything the pages are made from, gathered before anything is rendered."""

    home: Page
    chapters: tuple[Page, ...]
    claims_page: Page
    ledger: Ledger
    toy: dict


def _chapter(slug: str, source: Path) -> Page:
    """Read a chapter's title and lede from its front matter."""
    meta = read_front_matter(source)
    missing = {"title", "lede"} - meta.keys()
    if missing:
        raise BuildError(f"front matter lacks {', '.join(sorted(missing))}", source, 1)
    return Page(slug, meta["title"], meta["lede"], source, meta.get("nav_title", ""))


def gather(templates: Path = TEMPLATES) -> Inputs:
    """Read the ledger, the chapters' front matter and the core's numbers."""
    chapters = tuple(_chapter(s, templates / "chapters" / f"{s}.md") for s in CHAPTERS)
    claims = Page("claims", "Claims & sources", "Every claim the chapters make: what kind of "
                  "claim it is, where it comes from, and where it is cited.", None)
    return Inputs(
        home=_chapter("", templates / "chapters" / "index.md"),
        chapters=chapters,
        claims_page=claims,
        ledger=load_ledger(templates / "claims.toml"),
        toy=figures.toy_context(),
    )


def render_site(inputs: Inputs, templates: Path = TEMPLATES) -> dict[str, str]:
    """Render every page in memory; return {path below the site root: HTML}."""
    env = make_env(templates)
    renderer = PageRenderer(env, inputs.ledger, FIGURES)
    nav = (inputs.home, *inputs.chapters)
    rendered: list[Rendered] = []
    for page in nav:
        rendered.append(renderer.render(page, {**inputs.toy, "chapters": nav, "root": page.root}))
    for r in rendered:
        for citation in r.citations:
            for claim_id in citation.claims:
                inputs.ledger.claims[claim_id].cited_in.append(citation)
    check_all_cited(inputs.ledger)
    claims_body = env.get_template("claims.html").render(ledger=inputs.ledger, root="../")
    rendered.append(Rendered(inputs.claims_page, claims_body))
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
            scripts=[],
            asset=lambda name: f"static/{name}",
        )
    return out


def write_site(pages: dict[str, str], out: Path, templates: Path = TEMPLATES) -> None:
    """Write pages and static files to a fresh folder beside out, then swap it into place."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        shutil.copytree(templates / "static", tmp / "static")
        for rel, html in pages.items():
            target = tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(html, encoding="utf-8")
        os.chmod(tmp, 0o755)
        _swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _swap(new: Path, out: Path) -> None:
    """Replace out by new with two renames, so a reader never sees half a site."""
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    if out.exists():
        os.rename(out, old)
    os.rename(new, out)
    shutil.rmtree(old, ignore_errors=True)


def build(out: Path, templates: Path = TEMPLATES) -> dict[str, str]:
    """Build the site into out; on any error out is left exactly as it was."""
    pages = render_site(gather(templates), templates)
    write_site(pages, out, templates)
    return pages
