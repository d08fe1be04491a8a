"""Real Chromium (Debian's package) driven by Playwright, against the built site on 127.0.0.1."""

from __future__ import annotations

import shutil
import threading
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import sync_playwright

from sitebuild.serve import make_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def server(built_site):
    """Serve the session's built site on a free port; yield its base URL."""
    srv = make_server(built_site, 0, quiet=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}/"
    srv.shutdown()
    srv.server_close()
    thread.join()


@pytest.fixture(scope="session")
def browser():
    """Launch Debian's Chromium once per session; a missing browser is an error, not a skip."""
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@dataclass
class Watched:
    """A page plus everything it complained about."""

    page: object
    base: str
    console_errors: list = field(default_factory=list)
    page_errors: list = field(default_factory=list)
    foreign_requests: list = field(default_factory=list)

    def assert_clean(self):
        """Fail on any console error, uncaught exception or request to another origin."""
        assert self.console_errors == []
        assert self.page_errors == []
        assert self.foreign_requests == []


def watch(context, base: str) -> Watched:
    """Open a page in context that records console errors and requests leaving the origin."""
    page = context.new_page()
    w = Watched(page, base)
    page.on("console", lambda m: m.type == "error" and w.console_errors.append(m.text))
    page.on("pageerror", lambda e: w.page_errors.append(str(e)))
    page.on("request", lambda r: r.url.startswith(("http:", "https:"))
            and not r.url.startswith(base) and w.foreign_requests.append(r.url))
    return w


@pytest.fixture(params=[1280, 360], ids=["desktop", "phone"])
def viewport_width(request):
    return request.param


@pytest.fixture
def site_page(browser, server, viewport_width):
    """A fresh page at the requested width; it must end the test clean."""
    context = browser.new_context(viewport={"width": viewport_width, "height": 900})
    w = watch(context, server)
    yield w
    context.close()
    w.assert_clean()
