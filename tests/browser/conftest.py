"""Real Chromium (Debian's package) driven by Playwright, against the built site on 127.0.0.1."""

from __future__ import annotations

import html
import json
import re
import shutil
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

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
def running(srv):
    """Run srv (a SiteServer) for the with-block; yield its base URL."""
    try:
        yield start(srv)
    finally:
        stop(srv)


def serving(folder: Path, **options):
    """Serve folder on a free port of 127.0.0.1 (a fresh origin) for the with-block."""
    return running(make_server(folder, 0, quiet=True, **options))


SITE_CACHED = "async () => (await caches.keys()).some(k => k.includes('-site-'))"


def read_until_saved(page, base: str) -> None:
    """Read a chapter without live figures until the service worker has saved the site (not
    the runtime: no figure asked for Python)."""
    page.goto(base + "roles/")
    page.evaluate(WORKER_READY)
    page.wait_for_function(SITE_CACHED)


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


def until(page, script: str, arg=None, timeout_s: float = 30):
    """Poll an async page function until it returns true (wait_for_function takes a Promise
    for a truthy value)."""
    for _ in range(int(timeout_s * 10)):
        if page.evaluate(script, arg):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {script}")


def within(seconds: float, script: str) -> str:
    """The page function script, which returns a Promise, made to fail once it has waited
    seconds. Playwright's evaluate has no time limit: it waits on a page's Promise for ever,
    and a Promise that never settles (an answer never sent, a worker never ready) hangs the
    test where it should fail and say what it waited for."""
    what = json.dumps(" ".join(script.split())[:100])
    return f"""(arg) => Promise.race([({script})(arg), new Promise((_, fail) => setTimeout(
  () => fail(new Error("still waiting after {seconds:g} s: " + {what})), {seconds * 1000:.0f}))])"""


# Two frames drawn (the second after the first one's paint).
FRAMES = within(10, "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


# The page's service worker is active (it fails where one cannot install: an install that
# failed leaves navigator.serviceWorker.ready waiting for ever).
WORKER_READY = within(60, "async () => { await navigator.serviceWorker.ready; }")


def settle(page) -> None:
    """Wait until the page is settled (see SETTLED), then two frames more for paint."""
    page.wait_for_function(SETTLED)
    page.evaluate(FRAMES)


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


# ---- one booted page per test worker, shared by tests that only need the site live ----------
#
# Booting Python in a fresh context costs about 8-10 s of CPU (most of a browser test's time).
# A reader who follows one of the site's links keeps the booted Python: nav.js swaps the new
# page in place (a fresh <main>, every figure mounted anew from the address's state), and the
# worker stays. SharedPage.open() opens a page the same way, so the tests that only need the
# site live at some address share one boot per test worker. Each test still starts from a
# known state: the page its address describes, at the width and colour scheme it asks for,
# nothing focused, scrolled to its top (or its #anchor), its link's state applied. Tests about
# a first visit (booting, asking, failing, service workers, init scripts, routes, the worker
# count) keep a fresh context of their own; a test that patches the page's globals puts them
# back. Axe runs keep a fresh page too: they judge the page as a first visit shows it.

# Swap url in as a click on one of the site's links would; false when the site cannot
# (then the page is loaded in full instead). An address write still waiting from the last
# test (address.js writes once the frame is drawn and the page is idle) goes first: address.js
# would stop the swap's navigation to write, and start another, failing this one's promise.
# (One that has not finished in 20 s fails, and the page is loaded in full.)
SWAP = within(20, """async (url) => {
  if (!window.navigation || !document.querySelector('main')) return false;
  await new Promise((done) => requestAnimationFrame(() =>
    requestIdleCallback(() => setTimeout(done, 0), { timeout: 300 })));
  // address.js stops a navigation that starts while an address write waits, and starts it
  // again: this one is then aborted, and both its promises reject. finished says so here (and
  // open() swaps again); committed, unheard, would be an uncaught error on the page.
  const { committed, finished } = navigation.navigate(url, { history: 'replace' });
  committed.catch(() => {});
  await finished;
  return true;
}""")
# Start as a fresh load does: nothing focused (the swap focuses the new heading), and every
# figure's state from the address drawn (not still "opening the state from your link").
# (A mouse moved over the page by the last test is moved off it first.)
FRESH = """() => { if (document.activeElement && document.activeElement !== document.body)
  document.activeElement.blur(); }"""
LINK_APPLIED = "() => !document.querySelector('.is-waiting')"


class SharedPage:
    """A page of the site whose Python boots once, reused test after test through open()."""

    def __init__(self, browser, server: str, init_script: str | None = None):
        self.browser, self.base, self.init_script = browser, server, init_script
        self.context = self.w = None
        self.loaded = False
        self.loads = 0  # full page loads (each boots Python): one per page, unless a swap fails
        self.swap_errors = []  # why a swap failed, if one did

    @property
    def page(self):
        return self.w.page

    @property
    def console_errors(self):
        return self.w.console_errors

    def begin(self) -> None:
        """Before a test: a live page (a new one if the last was closed), nothing recorded yet."""
        if self.context is None or self.w.page.is_closed():
            self.discard()
            self.context = self.browser.new_context(viewport={"width": 1280, "height": 900})
            if self.init_script:
                self.context.add_init_script(script=self.init_script)
            self.w = watch(self.context, self.base)
            self.loaded = False
        for name in ("console_errors", "page_errors", "foreign_requests", "workers"):
            setattr(self.w, name, [])  # watch()'s listeners look the list up at each event

    def open(self, path: str, *, width: int = 1280, height: int = 900, scheme: str = "light"):
        """Show the site's page at path, as a fresh page at this size and scheme would."""
        page, url = self.page, self.base + path
        page.set_viewport_size({"width": width, "height": height})
        page.emulate_media(color_scheme=scheme, reduced_motion="no-preference")
        swapped = False
        for _ in range(2 if self.loaded else 0):
            try:
                swapped = page.evaluate(SWAP, url)
                break
            except PlaywrightError as error:  # aborted, or loaded in full after all: again
                self.swap_errors.append(str(error))
        if not swapped:
            page.goto(url)
            self.loaded = True
            self.loads += 1
        page.mouse.move(-1, -1)  # the pointer over nothing: no :hover left from the last test
        page.evaluate(FRESH)
        page.wait_for_function(LINK_APPLIED)
        return page

    def assert_clean(self) -> None:
        self.w.assert_clean()

    def discard(self) -> None:
        """Close the page (after a failed test, so that nothing it left carries over)."""
        if self.context is not None:
            self.context.close()
        self.context = self.w = None
        self.loaded = False


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "report_" + report.when, report)


@pytest.fixture(scope="session")
def _shared_page(browser, server):
    shared = SharedPage(browser, server)
    yield shared
    shared.discard()


@contextmanager
def lent(shared: SharedPage, request):
    """Lend shared to the test of request. The test must end clean, and one that fails leaves
    the page to be made anew for the next."""
    shared.begin()
    try:
        yield shared
    except BaseException:  # the fixture lending it failed: start afresh
        shared.discard()
        raise
    failed = any(getattr(getattr(request.node, "report_" + when, None), "failed", False)
                 for when in ("setup", "call"))
    if failed:
        shared.discard()
    else:
        try:
            shared.assert_clean()
        except AssertionError:
            shared.discard()
            raise


@pytest.fixture
def booted(_shared_page, request):
    """The worker's shared 1280 px page of the site (see SharedPage)."""
    with lent(_shared_page, request) as shared:
        yield shared


# ---- a teacher's course page on another origin, embedding the site's figures ----------------

def _guide_script() -> str:
    """The resize script as the embed guide prints it (the template's text, unescaped)."""
    guide = (Path(__file__).parents[2] / "templates" / "embed-guide.html").read_text(encoding="utf-8")
    code = re.search(r'id="resize-script"[^>]*><code>(.*?)</code>', guide, re.S).group(1)
    return html.unescape(code).removeprefix("<script>").removesuffix("</script>")


GUIDE_SCRIPT = _guide_script()


@pytest.fixture(scope="module")
def course_page(tmp_path_factory, server):
    """A course page on a second origin (another port) that embeds FIG-002 and the bench."""
    folder = tmp_path_factory.mktemp("course")
    (folder / "resize.js").write_text(GUIDE_SCRIPT)
    (folder / "index.html").write_text(f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>A course page</title><link rel="icon" href="data:,"><script src="resize.js"></script></head><body><h1>Week 3</h1>
<iframe id="one" src="{server}embed/fig-002/?query=grid" title="FIG-002" width="100%" height="300" data-attention-bench></iframe>
<iframe id="two" src="{server}embed/fig-004/?head=sink&amp;query=3" title="The bench" width="100%" height="300" data-attention-bench></iframe>
</body></html>""")
    srv = make_server(folder, 0, quiet=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_port}/"
    srv.shutdown()
    srv.server_close()
