"""Bytes on the wire: a first visit to /bench/ in a fresh Chromium profile, counted until
Python is ready, with the host's precompressed files and without them."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

from .browser_benchmark import CHROMIUM_ARGS, PROBE
from .serve import make_server

__all__ = ["TRANSFER_BEFORE", "TRANSFER_TARGET", "report_transfer", "transfer",
           "transfer_until_ready"]

TRANSFER_TARGET = 9_000_000  # bytes, a first visit to /bench/ until Python is ready
TRANSFER_BEFORE = 17_045_120  # measured the same way on main before this change (commit 33d3148)


def transfer_until_ready(browser, base: str, path: str = "bench/") -> dict:
    """Open path in a fresh profile and count the bytes received until Python is ready.

    The counts are Chromium's own (CDP Network.loadingFinished encodedDataLength, which
    Playwright reports per request, for the page and its worker alike): response headers
    plus the body as it crossed the network, encoded.
    """
    context = browser.new_context()  # an empty HTTP cache and no service worker
    context.add_init_script(PROBE)
    finished: list = []
    page = context.new_page()
    page.on("requestfinished", lambda request: finished.append(request))
    page.goto(base + path)
    page.wait_for_selector('.runtime-status[data-state="ready"]', timeout=90000)
    page.wait_for_timeout(500)  # the last requestfinished events arrive just after
    ready_at = page.evaluate("performance.timeOrigin + window.__ready")  # wall clock, as timing has it
    # Only what was asked for before Python was ready: once ready, the page goes on to
    # register its service worker and fetch the header's pages ahead, as timing allows.
    early = [request for request in finished if request.timing["startTime"] <= ready_at]
    sizes = [request.sizes() for request in early]
    context.close()
    return {"bytes": sum(s["responseHeadersSize"] + s["responseBodySize"] for s in sizes),
            "requests": len(early), "paths": sorted({r.url.removeprefix(base) for r in early})}


def transfer(site: Path) -> dict:
    """Serve site with and without its precompressed files; measure a first visit to /bench/."""
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        for name, encodings in (("compressed", True), ("uncompressed", False)):
            server = make_server(site, 0, quiet=True, encodings=encodings)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            try:
                out[name] = transfer_until_ready(browser, f"http://127.0.0.1:{server.server_port}/")
            finally:
                server.shutdown()
                server.server_close()
        browser.close()
    return out


def report_transfer(results: dict) -> None:
    """Print the bytes of a first visit, with and without compression, beside the old figure."""
    print(f"\n{'first visit to /bench/ until Python is ready':<46}{'bytes':>14}{'requests':>10}"
          f"{'vs before':>11}   target")
    for name, r in results.items():
        ratio = r["bytes"] / TRANSFER_BEFORE
        verdict = "ok" if r["bytes"] <= TRANSFER_TARGET else "OVER TARGET"
        target = f"<= {TRANSFER_TARGET:,}: {verdict}" if name == "compressed" else ""
        print(f"{'  ' + name:<46}{r['bytes']:>14,}{r['requests']:>10}{ratio:>10.2f}x   {target}")
    print(f"  before: {TRANSFER_BEFORE:,} bytes (every file uncompressed); counted from Chromium's "
          "encodedDataLength, page and worker")
