"""Stamp the build with its id and write the service worker that keeps one build offline.

The build id is a hash of everything the build wrote (pages, content-hashed files, the wheel;
the versioned runtime is named by its version). Every page carries it twice: as
`<meta name="attention-bench-build" content="…">` and as `<body data-build="…">`, the form
scripts read (`document.body.dataset.build`). The service worker caches each build as one
unit under `attention-bench-site-<build id>`.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import jinja2

from . import runtime

SERVICE_WORKER = "sw.js"
OFFLINE_PAGE = "offline.html"  # the page it shows offline for an address it never saved
BUILD_PLACEHOLDER = "@attention-bench-build@"  # in rendered pages until the id is known
_NOT_CONTENT = (".", "_", "runtime/")  # dotfiles, host files (_headers), the versioned runtime


def _content(site: Path):
    """Yield (path below site, file) for every file that makes up the build's content."""
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if path.is_file() and not rel.startswith(_NOT_CONTENT) and rel != SERVICE_WORKER \
                and not rel.endswith((".gz", ".br")):
            yield rel, path


def content_hash(site: Path) -> str:
    """Return a short hash of every file a reader's cache holds, except the versioned runtime."""
    h = hashlib.sha256()
    for rel, path in _content(site):
        h.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def stamp_build(site: Path) -> str:
    """Compute the build id of the files in site and write it into every page; return it."""
    build = content_hash(site)  # taken with the placeholder in place: it cannot hash itself
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        if BUILD_PLACEHOLDER in html:
            page.write_text(html.replace(BUILD_PLACEHOLDER, build), encoding="utf-8")
    return build


ON_DEMAND = ("static/answers/near/",)  # fetched only when a link needs them: not precached


def site_files(site: Path, immutable: list[str]) -> list[str]:
    """Return the URLs (relative to the site root) to precache: every page and immutable file,
    but those a page fetches only on demand (a link's own neighbours, 7 MB in all)."""
    pages = [rel.removesuffix("index.html") or "./" for rel, _ in _content(site)
             if rel.endswith(".html")]
    return sorted(pages) + sorted(f for f in immutable if not f.startswith(ON_DEMAND))


def write_service_worker(env: jinja2.Environment, site: Path, build: str, immutable: list[str],
                         runtime_dir: str | None) -> None:
    """Write site/sw.js, which precaches this build's pages and immutable files as one unit."""
    runtime_files = [runtime_dir + name for name in runtime.FILES] if runtime_dir else []
    text = env.get_template(SERVICE_WORKER).render(
        build=build, pyodide=runtime.PYODIDE_VERSION,
        site_files=site_files(site, immutable), runtime_files=runtime_files,
        offline_page=OFFLINE_PAGE)
    (site / SERVICE_WORKER).write_text(text, encoding="utf-8")
