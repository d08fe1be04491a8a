"""Find a built site's files by their plain names (the build gives them content-hashed names)."""

from __future__ import annotations

from pathlib import Path

from sitebuild.hashing import hashed_url


def asset(site: Path, plain: str) -> Path:
    """Return the built file for a plain path such as "static/js/page.js"."""
    return site / hashed_url(site, plain)
