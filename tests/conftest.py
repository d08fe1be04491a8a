"""Shared fixtures: a site built once per test session into a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitebuild.site import build


@pytest.fixture(scope="session")
def browser():
    """Launch Debian's Chromium once per session; a missing browser is an error, not a skip.

    One fixture for every folder of tests (tests/browser/, tests/notebook/): Playwright's sync
    API runs once per process, so a second launcher in the same test worker would fail.
    Every context it makes waits up to WAIT_MS by default (Playwright's own default is 30 s)."""
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import ARGS, CHROMIUM, WAIT_MS

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        new_context = b.new_context

        def patient_context(**options):
            context = new_context(**options)
            context.set_default_timeout(WAIT_MS)
            return context

        b.new_context = patient_context
        yield b
        b.close()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """Build the real site once into a temporary folder and return its path."""
    out = tmp_path_factory.mktemp("built") / "site"
    build(out)
    return out
