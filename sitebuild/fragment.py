"""Write one figure's static HTML, for course pages that accept no frames."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl

from attention import export, urlstate

from .claims import load_ledger
from .embeds import registry
from .errors import BuildError
from .render import Page, PageRenderer, make_env
from .site import FIGURES, TEMPLATES


def fragment(embed_id: str, url: str = "", site_url: str = "", css: bool = False,
             templates: Path = TEMPLATES) -> str:
    """Return the static HTML of one figure in the state that URL parameters describe.

    >>> html = fragment("fig-002", "query=grid")
    >>> "0.401" in html and "[0.802, 1.198]" in html
    True
    """
    embeds = {e.id: e for e in registry()}
    if embed_id not in embeds:
        raise BuildError(f"unknown figure {embed_id!r}; choose one of {', '.join(embeds)}")
    figure = export.URL_STATE.get(embed_id, embed_id)
    params = dict(parse_qsl(url.lstrip("?"), keep_blank_values=True))
    state, notices = urlstate.from_url(figure, params) if figure in urlstate.PARAMETERS else ({}, [])
    if notices or (params and figure not in urlstate.PARAMETERS):
        raise BuildError(" ".join(notices) or f"{embed_id} takes no parameters")
    renderer = PageRenderer(make_env(templates), load_ledger(templates / "claims.toml"), FIGURES)
    html = renderer.figure_html(embeds[embed_id].figure, state, page=Page("", "", "", None))
    html = html.replace('href="claims/', f'href="{site_url}claims/')
    html = re.sub(r'<p class="link-note">.*?</p>', "", html)  # a fragment shows its own state
    head = f"<!-- Attention Bench: {embeds[embed_id].title} ({embed_id}), computed at build time -->\n"
    style = (f"<style>\n{(templates / 'static' / 'style.css').read_text(encoding='utf-8')}\n</style>\n"
             if css else "")
    return head + style + html
