"""An iPad's WebKit takes the runtime's iOS path: its navigator says "MacIntel" with touch
points, which Pyodide 0.27.7 alone takes for a Mac (pyodide#5670, fatal on iPadOS 18); the page
tells the worker, and the worker tells Pyodide (README, "The Python runtime")."""

from __future__ import annotations

import pytest

from attention import bench_view
from tests.browser.test_bench_page import DRAWN
from tests.engines.conftest import IPadRecorded, missing, recorded
from tests.engines.drivers import WebKit

# How the page's runtime counts a function's arguments, once Python is ready.
COUNT_ARGS = """async () => {
  const url = performance.getEntriesByType('resource').map((e) => e.name)
    .find((n) => /\\/static\\/js\\/runtime\\.[0-9a-f]{10}\\.js$/.test(n));
  const runtime = await import(url);
  return await new Promise((resolve) => runtime.onStatus((s) => { if (s.state === 'ready') resolve(s.countArgs); }));
}"""


@pytest.fixture(scope="module")
def webkit():
    why = missing("webkit")
    if why:
        raise RuntimeError(f"webkit: {why}")
    browser = WebKit()
    yield browser
    browser.close()


def computed_row(engine) -> None:
    """Python computes a bench state no table holds, as the core does."""
    sentence = "the pilot saw it"
    engine.type_into("#bench-sentence", sentence, enter=True)
    engine.wait_for("() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]').textContent === 'it'",
                    timeout=90)
    engine.wait_for(DRAWN)  # what is off screen is written once the page is idle (near.js)
    shown = engine.call("() => [...document.querySelectorAll('#fig-005 tbody tr .weight .num')].map((e) => e.textContent)")
    assert shown == [r["weight"]["text"] for r in bench_view.view(sentence=sentence)["rows"]]


def test_an_ipad_takes_the_ios_path_and_python_still_computes(webkit, site_url, built_site):
    # This WebKit, as itself: Pyodide uses WebAssembly GC to count arguments (so the iPad's
    # answer below is the shim's doing, not this engine's).
    webkit.open(site_url + "bench/")
    assert webkit.call("() => [navigator.platform, navigator.maxTouchPoints]") != ["MacIntel", 5]
    assert webkit.call(COUNT_ARGS) == "wasm-gc"
    with recorded(built_site, IPadRecorded) as ipad:
        webkit.open(ipad + "bench/")
        assert webkit.call("() => [navigator.platform, navigator.maxTouchPoints]") == ["MacIntel", 5]
        assert webkit.call(COUNT_ARGS) == "javascript"
        computed_row(webkit)
        assert webkit.problems() == []
