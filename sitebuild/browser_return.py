"""A reader who comes back: Python's start on a first visit and on a return visit.

A return visit is a new browser process on the same profile, as a reader opening the site
again tomorrow: its HTTP cache, Cache Storage (the service worker's copy of the site and the
runtime, and what the last start saved: static/js/saved-start.js) and the engine's cache of
compiled WebAssembly are all the first visit left. Each profile is visited twice, and the first
visit stays open a few seconds after Python is ready, as a reader reads on (what a start keeps
for the next is written in that time). Chromium through Playwright, Firefox through its WebDriver
BiDi driver (tests/engines/drivers.py), the same page, the same server.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
from pathlib import Path

from .browser_boot import STEPS, median_steps

PATH = "mixture/"
STAY_MS = 5000  # the first visit stays open this long after Python is ready
READY = "() => Boolean(document.querySelector('.runtime-status[data-state=\"ready\"]'))"
# When Python was ready, in ms since the page's start: the end of the start's last step (the
# worker reports each step, and runtime.js marks them as measures of the page's timeline).
READY_AT = """() => Math.max(...performance.getEntriesByType('measure')
  .filter(m => m.name.startsWith('python: ') && !m.name.startsWith('python: first answer'))
  .map(m => m.startTime + m.duration))"""


def _chromium_visit(p, profile: str, url: str, stay_ms: int, args: list[str]) -> dict:
    context = p.chromium.launch_persistent_context(
        profile, executable_path=shutil.which("chromium"), args=args, headless=True)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(READY, timeout=90000)
        visit = {"ready": page.evaluate(READY_AT), "steps": page.evaluate(STEPS)}
        page.wait_for_timeout(stay_ms)
        return visit
    finally:
        context.close()


def _firefox_visit(profile: Path, url: str, stay_ms: int) -> dict:
    from tests.engines.drivers import Firefox

    firefox = Firefox(profile=profile)
    try:
        firefox.open(url)
        firefox.wait_for(READY, timeout=90, what="Python ready")
        visit = {"ready": firefox.call(READY_AT), "steps": firefox.call(STEPS)}
        firefox.call(f"() => new Promise((done) => setTimeout(done, {stay_ms}))")
        return visit
    finally:
        firefox.close()


def visits(engine: str, base: str, profiles: int = 3, stay_ms: int = STAY_MS,
           chromium_args: tuple[str, ...] = ()) -> dict:
    """First and return visits to PATH on `profiles` fresh profiles: the median time to ready
    of each, their ratio and each one's median steps."""
    first, again = [], []
    with tempfile.TemporaryDirectory() as root:
        if engine == "chromium":
            from playwright.sync_api import sync_playwright

            with sync_playwright() as p:
                for k in range(profiles):
                    profile = f"{root}/{k}"
                    for runs in (first, again):
                        runs.append(_chromium_visit(p, profile, base + PATH, stay_ms, list(chromium_args)))
        else:
            for k in range(profiles):
                profile = Path(root) / str(k)
                profile.mkdir()
                first.append(_firefox_visit(profile, base + PATH, stay_ms))
                again.append(_firefox_visit(profile, base + PATH, stay_ms))
    result = {}
    for name, runs in (("first", first), ("return", again)):
        result[name] = {"ready": statistics.median(v["ready"] for v in runs),
                        "each": [v["ready"] for v in runs],
                        "steps": median_steps([v["steps"] for v in runs])}
    result["ratio"] = result["return"]["ready"] / result["first"]["ready"]
    result["profiles"] = profiles
    return result


def report_return(results: dict) -> None:
    """Print first and return visits per engine, the ratio, and where each start went."""
    print(f"\n{'a reader who comes back, /' + PATH + ' (ms)':<44}{'first visit':>14}{'return visit':>14}"
          f"{'ratio':>8}   target ratio <= 0.5")
    for engine, r in results.items():
        print(f"{'Python ready, ' + engine + ', median':<44}{r['first']['ready']:>14.0f}"
              f"{r['return']['ready']:>14.0f}{r['ratio']:>8.3f}")
        print(f"{'  each profile':<44}{', '.join(f'{v:.0f}' for v in r['first']['each']):>14}"
              f"   {', '.join(f'{v:.0f}' for v in r['return']['each'])}")
    print(f"a return visit is a new browser process on the first visit's profile; the first visit"
          f" stays {STAY_MS / 1000:g} s after Python is ready")
    for engine, r in results.items():
        print(f"\n{'where the start goes, ' + engine + ' (ms, medians)':<60}{'first':>10}{'return':>10}")
        names = list(dict.fromkeys([*r["first"]["steps"], *r["return"]["steps"]]))
        for name in names:
            cells = [r[v]["steps"].get(name) for v in ("first", "return")]
            print(f"  {name:<58}" + "".join(f"{c:>10.0f}" if c is not None else f"{'–':>10}" for c in cells))
        for v in ("first", "return"):
            counted = sum(ms for ms in r[v]["steps"].values())
            print(f"  {'(' + v + ': the steps, of ' + format(r[v]['ready'], '.0f') + ' to ready)':<58}"
                  f"{counted:>10.0f}")
