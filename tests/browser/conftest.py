"""Real Chromium (Debian's package) driven by Playwright, against the built site on 127.0.0.1."""

from __future__ import annotations

import shutil
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from sitebuild.serve import make_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def start(srv) -> str:
    """Run srv (a SiteServer) from a daemon thread; return its base URL."""
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_port}/"


def stop(srv) -> None:
    srv.shutdown()
    srv.server_close()


@contextmanager
def serving(folder: Path, **options):
    """Serve folder on a free port of 127.0.0.1 (a fresh origin) for the with-block."""
    srv = make_server(folder, 0, quiet=True, **options)
    try:
        yield start(srv)
    finally:
        stop(srv)


@pytest.fixture(scope="session")
def server(built_site):
    """Serve the session's built site on a free port; yield its base URL."""
    with serving(built_site) as base:
        yield base


@pytest.fixture
def own_build(tmp_path) -> tuple[Path, Path]:
    """A copy of the templates and the site built from it, for tests that change and rebuild."""
    from sitebuild.site import TEMPLATES, build
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    site = tmp_path / "site"
    build(site, templates)
    return templates, site


# How long any wait may take before it fails. Python boots in about 3 s on an idle 2-core
# machine; with one test worker per core and other work on the machine it can take ten times
# that, and a wait that times out only says the machine was busy.
WAIT_MS = 60_000


@pytest.fixture(scope="session")
def browser():
    """Launch Debian's Chromium once per session; a missing browser is an error, not a skip.

    Every context it makes waits up to WAIT_MS by default (Playwright's own default is 30 s)."""
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


@dataclass
class Watched:
    """A page plus everything it complained about."""

    page: object
    base: str
    console_errors: list = field(default_factory=list)
    page_errors: list = field(default_factory=list)
    foreign_requests: list = field(default_factory=list)
    workers: list = field(default_factory=list)  # the URL of each Worker the page started

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
    page.on("worker", lambda worker: w.workers.append(worker.url))
    return w


# A page is settled once no region says it is busy and no transition or animation runs:
# axe measures colours as drawn at that moment, and a fade caught half-way is not the page.
SETTLED = """() => !document.querySelector('[aria-busy="true"]')
  && document.getAnimations().every((a) => a.playState !== 'running')"""


def settle(page) -> None:
    """Wait until the page is settled (see SETTLED), then two frames more for paint."""
    page.wait_for_function(SETTLED)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


@pytest.fixture(params=[1280, 360], ids=["desktop", "phone"])
def viewport_width(request):
    return request.param


@pytest.fixture
def desktop(browser, server):
    """A fresh 1280 px page that must end the test clean."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    w = watch(context, server)
    yield w
    context.close()
    w.assert_clean()


@pytest.fixture
def no_js(browser):
    """A page with JavaScript off, as some readers and every crawler see the site."""
    context = browser.new_context(java_script_enabled=False)
    yield context.new_page()
    context.close()


@contextmanager
def routable(browser, server: str, width: int = 1280):
    """A page whose every request page.route sees: no service worker answers in its place
    (registering one fails, as the page expects where they are blocked). It must end clean."""
    context = browser.new_context(service_workers="block", viewport={"width": width, "height": 900})
    w = watch(context, server)
    yield w
    context.close()
    w.console_errors = [e for e in w.console_errors if "Service Worker" not in e]
    w.assert_clean()


@pytest.fixture
def routed_page(browser, server, viewport_width):
    """A fresh page at the requested width that page.route sees whole (see routable)."""
    with routable(browser, server, viewport_width) as w:
        yield w


@pytest.fixture
def site_page(browser, server, viewport_width):
    """A fresh page at the requested width; it must end the test clean."""
    context = browser.new_context(viewport={"width": viewport_width, "height": 900})
    w = watch(context, server)
    yield w
    context.close()
    w.assert_clean()
