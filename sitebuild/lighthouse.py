"""Lighthouse's performance score for the bench and the mixture chapter, several runs each.

Lighthouse (pinned below, fetched by npx from npm the first time) drives Debian's Chromium with
its default settings: a simulated mid-range phone on a slow 4G connection. Its score is the
issue's figure ("Lighthouse performance 100 on /bench/ as on /mixture/"). The simulated LCP
follows the *observed* first paint: Lighthouse counts every main-thread task that ran before
it, so one run whose first frame came late (a headless browser's pause, not the page's work)
scores lower. Each run is printed, not only the median, so such a run shows as one.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import tempfile
import threading
from pathlib import Path

from .serve import make_server

__all__ = ["LIGHTHOUSE", "PAGES", "report_lighthouse", "scores"]

LIGHTHOUSE = "lighthouse@12.8.2"
PAGES = ("bench/", "mixture/")
TARGET = 100


def _run(url: str, out: Path) -> dict:
    """One Lighthouse run of url: its score and the figures that decide it (ms)."""
    subprocess.run(
        ["npx", "--yes", LIGHTHOUSE, url, "--only-categories=performance", "--output=json",
         f"--output-path={out}", "--quiet", "--chrome-flags=--headless=new --no-sandbox"],
        check=True, capture_output=True, timeout=300,
        env={**os.environ, "CHROME_PATH": shutil.which("chromium") or ""})
    report = json.loads(out.read_text(encoding="utf-8"))
    audits = report["audits"]
    observed = audits["metrics"]["details"]["items"][0]
    return {"score": round(report["categories"]["performance"]["score"] * 100),
            "lcp": audits["largest-contentful-paint"]["numericValue"],
            "tbt": audits["total-blocking-time"]["numericValue"],
            "observed_fcp": observed["observedFirstContentfulPaint"]}


def scores(site: Path, runs: int = 5) -> dict[str, list[dict]] | str:
    """Lighthouse's figures for each page of PAGES, runs times each; or why it could not run."""
    if not shutil.which("npx") or not shutil.which("chromium"):
        return "npx or Chromium is missing"
    server = make_server(site, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    try:
        with tempfile.TemporaryDirectory() as tmp:
            return {page: [_run(base + page, Path(tmp) / f"{i}.json") for i in range(runs)]
                    for page in PAGES}
    except (subprocess.SubprocessError, OSError, ValueError, KeyError) as error:
        return f"Lighthouse could not run ({type(error).__name__}: {str(error)[:200]})"
    finally:
        server.shutdown()
        server.server_close()


def report_lighthouse(results: dict[str, list[dict]] | str) -> None:
    """Print each page's scores, run by run, and the simulated LCP beside the observed paint."""
    print(f"\nLighthouse performance ({LIGHTHOUSE}, simulated phone, Debian Chromium)")
    if isinstance(results, str):
        print(f"  not measured: {results}")
        return
    for page, runs in results.items():
        lowest = min(r["score"] for r in runs)
        print(f"  /{page:<12} scores {' '.join(str(r['score']) for r in runs):<22}"
              f"LCP (simulated) median {statistics.median(r['lcp'] for r in runs):>6.0f} ms   "
              f"first paint (observed) {min(r['observed_fcp'] for r in runs):.0f}–"
              f"{max(r['observed_fcp'] for r in runs):.0f} ms   "
              f"[target {TARGET} every run: {'ok' if lowest >= TARGET else 'OVER TARGET'}]")
