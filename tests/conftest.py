"""Shared fixtures: a site built once per test session into a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitebuild.site import build


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """Build the real site once into a temporary folder and return its path."""
    out = tmp_path_factory.mktemp("built") / "site"
    build(out)
    return out
