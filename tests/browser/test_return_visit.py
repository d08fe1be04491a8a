"""A reader who comes back: Python starts from what the first visit saved (static/js/saved-start.js)
and answers exactly as it did, and a saved start the runtime cannot take is forgotten.

Each visit is a new Chromium process on one kept profile, as a reader opening the site again
the next day. Python's answer is to a sentence typed on the bench, which no precomputed table
holds: the worker computes it (its "first answer" step says so).
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARGS, CHROMIUM, WAIT_MS, settle, until, watch

SENTENCE = "the pilot saw the engineer and she waved"
STEPS = """() => performance.getEntriesByType('measure').filter(m => m.name.startsWith('python: '))
  .map(m => m.name.slice(8))"""
READY = "() => document.querySelector('#fig-004 .runtime-status')?.dataset.state === 'ready'"
# The saved start's entries once both are written: [key's path, size in bytes] each.
SAVED = """async () => { if (!(await caches.has('attention-bench-saved-start'))) return [];
  const cache = await caches.open('attention-bench-saved-start');
  return Promise.all((await cache.keys()).map(async (r) =>
    [new URL(r.url).pathname.split('/').pop(), (await (await cache.match(r)).arrayBuffer()).byteLength])); }"""
BOTH_SAVED = f"async () => {{ const s = await ({SAVED})(); return s.length === 2 && s.every(([, n]) => n > 2 ** 20); }}"
# What the runtime cannot take: a memory cut short (its start would hang on it: saved-start.js
# asks first) and packages' files that are no block of files; or a memory made by another
# Pyodide (its magic number differs: Pyodide refuses it).
SPOIL = """async (how) => { const cache = await caches.open('attention-bench-saved-start');
  for (const r of await cache.keys()) {
    const bytes = new Uint8Array(await (await cache.match(r)).arrayBuffer());
    if (r.url.includes('interpreter.memory') && how === 'another runtime') bytes[0] ^= 0xff;
    await cache.put(r, new Response(how === 'cut short' ? bytes.slice(0, 64) : bytes));
  } }"""


def visit(browser, profile, base: str) -> dict:
    """Open the bench in a new Chromium on profile, type SENTENCE once Python is ready, and
    return what the start did, the answer's table and what the page complained about."""
    context = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=ARGS, headless=True)
    context.set_default_timeout(WAIT_MS)
    try:
        w = watch(context, base)
        page = w.page
        page.goto(base + "bench/")
        page.wait_for_function(READY)
        page.fill("#bench-sentence", SENTENCE)
        page.press("#bench-sentence", "Enter")
        page.wait_for_function("() => performance.getEntriesByName('python: first answer').length")
        page.wait_for_function("() => document.querySelectorAll('#fig-006 tbody tr').length === 8")
        settle(page)
        # the reader reads on: what the start keeps for the next visit is written meanwhile
        until(page, BOTH_SAVED, timeout_s=WAIT_MS / 1000)
        result = {"steps": page.evaluate(STEPS), "table": page.inner_text("#fig-006 table"),
                  "saved": dict(page.evaluate(SAVED))}
        w.assert_clean()
        return result
    finally:
        context.close()


@pytest.fixture
def profile(tmp_path):
    return tmp_path / "profile"


def test_a_return_visit_starts_from_the_saved_start_and_answers_the_same(browser, server, profile):
    first = visit(browser, profile, server)
    assert "compile and interpreter start" in first["steps"]
    assert "numpy and attention wheels" in first["steps"]
    # the interpreter's memory (Pyodide's snapshot: at least its 20 MB heap) and the packages'
    # files (NumPy's unpacked wheel alone is over 12 MB)
    assert first["saved"]["interpreter.memory"] > 16 * 2**20
    assert first["saved"]["packages.files"] > 12 * 2**20

    again = visit(browser, profile, server)
    assert "interpreter start from the saved memory" in again["steps"]
    assert "numpy and attention from the saved files" in again["steps"]
    assert "compile and interpreter start" not in again["steps"]
    assert "numpy and attention wheels" not in again["steps"]
    assert again["table"] == first["table"]
    assert "NaN" not in first["table"]


def spoil(browser, profile, base: str, how: str) -> dict:
    """Spoil the saved start on profile as `how` says; return its entries' sizes."""
    context = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=ARGS, headless=True)
    try:
        page = context.new_page()
        page.goto(base + "roles/")
        page.evaluate(SPOIL, how)
        return dict(page.evaluate(SAVED))
    finally:
        context.close()


def test_a_saved_start_the_runtime_cannot_take_is_forgotten_and_python_starts_afresh(
        browser, server, profile):
    first = visit(browser, profile, server)

    assert spoil(browser, profile, server, "cut short") == {"interpreter.memory": 64, "packages.files": 64}
    again = visit(browser, profile, server)
    assert "compile and interpreter start" in again["steps"]
    assert "numpy and attention wheels" in again["steps"]
    assert again["table"] == first["table"]
    # and this visit saved a start the next one can take
    assert again["saved"]["interpreter.memory"] > 16 * 2**20
    assert again["saved"]["packages.files"] > 12 * 2**20

    spoil(browser, profile, server, "another runtime")
    third = visit(browser, profile, server)
    assert "compile and interpreter start" in third["steps"]
    assert "numpy and attention from the saved files" in third["steps"]
    assert third["table"] == first["table"]
