"""Measure each embed's real height in headless Chromium, for the guide's iframe snippets.

The snippets' heights are measurements, not guesses: ``python -m sitebuild.embed_heights``
builds the site, opens every embed at a desktop and a phone width once Python has drawn it,
and writes the heights to ``sitebuild/embed_heights.json``, which ``embeds.registry()``
reads. A browser test fails when a figure's height drifts from the file, so a change to a
figure's layout comes with a fresh measurement.
"""

from __future__ import annotations

import functools
import json
import shutil
import tempfile
import threading
from pathlib import Path

HEIGHTS = Path(__file__).with_name("embed_heights.json")
WIDTHS = {"desktop": 1280, "phone": 360}
MARGIN = 8  # pixels added to a measurement: room for a font that sets a little taller
READY = '.runtime-status[data-state="ready"]'


@functools.cache
def read() -> dict[str, dict[str, int]]:
    """Return the measured heights: ``{embed id: {"desktop": px, "phone": px}}``."""
    return json.loads(HEIGHTS.read_text(encoding="utf-8"))


def measure(page, url: str, live: bool) -> int:
    """Return the height of an embed page once its figure is drawn."""
    page.goto(url)
    if live:
        page.wait_for_selector(READY, timeout=60000)
    page.wait_for_timeout(300)  # let fonts and a last redraw settle
    return int(page.evaluate("Math.ceil(document.documentElement.getBoundingClientRect().height)"))


def main() -> int:
    """Build the site, measure every embed at each width and write embed_heights.json."""
    from playwright.sync_api import sync_playwright

    from .browser_benchmark import CHROMIUM_ARGS
    from .embeds import registry
    from .serve import make_server
    from .site import build

    out = Path(tempfile.mkdtemp()) / "site"
    build(out)
    server = make_server(out, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    heights: dict[str, dict[str, int]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                    args=CHROMIUM_ARGS)
        for name, width in WIDTHS.items():
            page = browser.new_context(viewport={"width": width, "height": 800}).new_page()
            for embed in registry():
                heights.setdefault(embed.id, {})[name] = measure(page, base + embed.url, embed.live) + MARGIN
        browser.close()
    server.shutdown()
    HEIGHTS.write_text(json.dumps(heights, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {HEIGHTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
