"""The browser benchmark's clicks: what a page records before its scripts run, one click timed
to the frame that shows its answer, and a page booted to Python's ready; and chapter 5's
click rows (the layer figure), measured as the bench's are (sitebuild.browser_benchmark)."""

from __future__ import annotations

import statistics

from .browser_boot import STEPS

__all__ = ["CLICK", "PAINTED", "PROBE", "SETTLE_MS", "layer_clicks", "percentile", "boot", "clicks"]

# Recorded before any page script runs: long tasks and the moment the runtime is ready.
PROBE = """
window.__long = [];
new PerformanceObserver(l => l.getEntries().forEach(e => window.__long.push(e.duration)))
  .observe({type: 'longtask', buffered: true});
new MutationObserver(() => {
  const s = document.querySelector('.runtime-status[data-state="ready"]');
  if (s && !window.__ready) window.__ready = performance.now();
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-state']});
"""

# The moment the frame that shows a change has been drawn: a requestAnimationFrame callback
# runs *before* that frame's style, layout and paint, so the time is read in a task posted
# from it, which runs once they are done.
PAINTED = "(done) => requestAnimationFrame(() => { const c = new MessageChannel(); " \
          "c.port1.onmessage = done; c.port2.postMessage(0); })"

# One click and the frame that shows its answer drawn; resolves with the elapsed milliseconds.
# A reader clicks what is on screen: the button is scrolled into view first, and the page
# draws two frames there before the time starts. Given a value, the target is a text box and
# the value is typed into it (its input event), as a reader types a T.
CLICK = """async ([selector, watch, value]) => {
  document.querySelector(selector).scrollIntoView({block: "center"});
  await new Promise(PAINTED);
  await new Promise(PAINTED);
  const target = document.querySelector(watch);
  const before = target.textContent;
  const start = performance.now();
  const changed = new Promise(resolve => {
    const mo = new MutationObserver(() => {
      if (target.textContent !== before) { mo.disconnect(); resolve(); }
    });
    mo.observe(target, {childList: true, characterData: true, subtree: true});
  });
  const box = document.querySelector(selector);
  if (value === undefined) box.click();
  else { box.value = value; box.dispatchEvent(new Event("input", {bubbles: true})); }
  await changed;
  await new Promise(PAINTED);
  return performance.now() - start;
}""".replace("PAINTED", PAINTED)

def percentile(values: list[float], q: float) -> float:
    """Return the q-th percentile (nearest rank) of values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def boot(context, url: str) -> dict:
    """Open url and return time to ready, the longest main-thread task until then and the
    start's steps (none on the baseline page, which has no worker)."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => window.__ready", timeout=60000)
    result = page.evaluate("({ready: window.__ready, long: Math.max(0, ...window.__long)})")
    return {"page": page, "steps": page.evaluate(STEPS), **result}


SETTLE_MS = 350  # a reader's clicks are this far apart at least: the last redraw has settled


def clicks(page, pairs: list[tuple], n: int) -> list[float]:
    """Click alternately through (button, watched element) pairs n times, SETTLE_MS apart;
    return each click's latency to the frame that shows its answer. (A triple's third item is
    a value typed into a text box instead: CLICK.)"""
    latencies = []
    for i in range(n):
        latencies.append(page.evaluate(CLICK, list(pairs[i % len(pairs)])))
        page.wait_for_timeout(SETTLE_MS)
    return latencies


# Chapter 5's sentences for typed-sentence clicks: each new, so Python computes every one
LAYER_SENTENCES = [f"the {a} saw the {b} before {p} left" for a, b, p in (
    ("pilot", "car", "he"), ("teacher", "letter", "she"), ("farmer", "house", "he"),
    ("student", "map", "she"), ("doctor", "report", "she"), ("artist", "picture", "he"),
    ("engineer", "bridge", "she"), ("pilot", "map", "she"), ("teacher", "car", "he"),
    ("farmer", "letter", "she"))]


def layer_clicks(browser, base: str, n: int = 60) -> dict:
    """Measure click-to-paint on /layer/ (its live figure), as the bench's rows are measured: following
    another word of the 8-word default, and a typed sentence (no table holds it: computed)."""
    context = browser.new_context()
    context.add_init_script(PROBE)
    page = boot(context, base + "layer/")["page"]
    said = '.figure.layer [data-bind="said"]'
    word = ".figure.layer .layer-words li:nth-child({}) button"
    results = {"layer, 8 words": clicks(page, [(word.format(2), said), (word.format(7), said)], n)}
    typed = []
    for sentence in LAYER_SENTENCES:
        page.fill("#layer-sentence", sentence)
        typed += clicks(page, [(".figure.layer .layer-controls button[type=submit]", said)], 1)
    results["layer, a sentence typed (computed)"] = typed
    context.close()
    return {name: {"median": statistics.median(v), "p95": percentile(v, 95), "clicks": len(v)}
            for name, v in results.items()}
