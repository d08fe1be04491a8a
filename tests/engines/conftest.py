"""Firefox and WebKit against the built site, served by build.py's own server (its real
headers), with one addition: every page carries a recorder of what it complains about.

WebKitGTK's driver reports no console messages, so the page keeps them itself: the recorder,
a script of the server's own origin that the strict policy allows, is the first thing in each
page's <head>, and keeps every uncaught error, unhandled rejection, CSP violation and
console.error in `window.__problems` (drivers.TAKE_PROBLEMS reads them). A page can also be
served as an iPad sends it (platform "MacIntel", five touch points), for the runtime's iOS path.
"""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

import pytest

from sitebuild.serve import SiteHandler, SiteServer
from tests.browser.conftest import running
from tests.engines.drivers import ENGINES

ENGINES_DIR = Path(__file__).resolve().parent

RECORDER = "/__problems.js"
RECORDER_JS = b"""window.__problems = [];
const keep = (what) => window.__problems.push(String(what).slice(0, 500));
// an error the page handles (preventDefault: anchor.js, the benign ResizeObserver loop) is not
// reported to the console; every other one is kept
addEventListener("error", (e) => setTimeout(() => e.defaultPrevented || keep(`error: ${e.message || (e.target && (e.target.src || e.target.href))}`)), true);
addEventListener("unhandledrejection", (e) => keep(`unhandled rejection: ${e.reason && (e.reason.stack || e.reason)}`));
document.addEventListener("securitypolicyviolation", (e) => keep(`CSP: ${e.violatedDirective} ${e.blockedURI}`));
const error = console.error.bind(console);
console.error = (...args) => { keep(`console.error: ${args.join(" ")}`); error(...args); };
"""
IPAD = "/__ipad.js"
IPAD_JS = b"""// The navigator of an iPad on iPadOS 13 or later: it says MacIntel, and has touch points.
Object.defineProperty(Navigator.prototype, "platform", { get: () => "MacIntel", configurable: true });
Object.defineProperty(Navigator.prototype, "maxTouchPoints", { get: () => 5, configurable: true });
"""


class Recorded(SiteHandler):
    """The site's own server, each page with the recorder first in its <head>."""

    ipad = False

    def _answer(self, body: bool) -> None:
        scripts = {RECORDER: RECORDER_JS, IPAD: IPAD_JS}
        path = self.path.split("?")[0]
        if path in scripts:
            data = scripts[path]
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if body:
                self.wfile.write(data)
            return
        super()._answer(body)

    def _send_file(self, path, url_path, status, body):
        if path.suffix != ".html":
            return super()._send_file(path, url_path, status, body)
        first = f'<script src="{IPAD}"></script>' if self.ipad else ""
        html = path.read_text(encoding="utf-8").replace(
            "<head>", f'<head><script src="{RECORDER}"></script>{first}', 1).encode()
        self.send_response(status)
        for name, value in self.server.headers_for(url_path).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(html)))
        self.end_headers()
        if body:
            self.wfile.write(html)
        return None


class IPadRecorded(Recorded):
    ipad = True


def recorded(site, handler=Recorded):
    """Serve site on a fresh origin with every page recorded (handler) for the with-block."""
    srv = SiteServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)), site)
    srv.quiet = True
    return running(srv)


@pytest.fixture(scope="module")
def site_url(built_site):
    """The built site on a fresh origin of its own, every page recorded."""
    with recorded(built_site) as base:
        yield base


def missing(name: str) -> str | None:
    """Why an engine cannot run here (make test installs them), or None."""
    need = {"firefox": ["firefox-esr"], "webkit": ["WebKitWebDriver", "Xvfb"]}[name]
    absent = [tool for tool in need if not shutil.which(tool)]
    return f"{', '.join(absent)} not installed (make test installs it)" if absent else None


@pytest.fixture(params=sorted(ENGINES), scope="module")
def engine(request):
    """Firefox or WebKit at 1280 x 900, one per test module and engine. A missing browser is
    an error, never a skip: make test installs them."""
    why = missing(request.param)
    if why:
        raise RuntimeError(f"{request.param}: {why}")
    browser = ENGINES[request.param]()
    yield browser
    browser.close()


# Firefox ESR and WebKitGTK under Xvfb share CI's two cores with the Chromium tests, and a test
# here reads a page's layout at rest: under that load one in a few runs read a page still moving
# (a glide read half-way, a deferred write counted as a resize, focus read while the header came
# back). Each test here runs again once when it fails; a test that fails twice fails the run, and
# every rerun is listed in CI's summary (-rR, .ci/run) so that an intermittent fault stays seen.
RERUNS = 1


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.is_relative_to(ENGINES_DIR):
            item.add_marker(pytest.mark.flaky(reruns=RERUNS))
