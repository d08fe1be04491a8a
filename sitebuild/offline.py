"""Stamp the build with a hash of its content and write the service worker that caches it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import jinja2

from . import runtime

SERVICE_WORKER = "sw.js"


def content_hash(site: Path) -> str:
    """Return a short hash of every file a reader's cache holds, except the versioned runtime."""
    h = hashlib.sha256()
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if path.is_file() and not rel.startswith(("runtime/", ".")) and rel != SERVICE_WORKER:
            h.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def site_files(site: Path) -> list[str]:
    """Return the URLs (relative to the site root) of everything to precache but the runtime."""
    urls = []
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if not path.is_file() or rel.startswith(("runtime/", ".")) or rel == SERVICE_WORKER:
            continue
        if path.name == "index.html":
            urls.append(rel.removesuffix("index.html") or "./")
        else:
            urls.append(rel)
    return urls


def write_service_worker(env: jinja2.Environment, site: Path, runtime_dir: str | None) -> str:
    """Write site/sw.js for the files now in site; return the content hash it carries."""
    version = content_hash(site)
    runtime_files = [runtime_dir + name for name in runtime.FILES] if runtime_dir else []
    text = env.get_template(SERVICE_WORKER).render(
        version=version, pyodide=runtime.PYODIDE_VERSION,
        site_files=site_files(site), runtime_files=runtime_files)
    (site / SERVICE_WORKER).write_text(text, encoding="utf-8")
    return version
