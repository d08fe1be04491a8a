"""Measure the site: build time and page weight, printed against the targets the issues set."""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import hashing, modules, widgets
from .site import ROOT, build

BUILD_TARGET_S = 1.0
PAGE_TARGET_BYTES = 100_000
_ASSET = re.compile(r'<(?:link rel="stylesheet"|script type="module")[^>]*?(?:href|src)="([^"]+)"')


def _verdict(ok: bool) -> str:
    """Say whether a figure meets its target."""
    return "ok" if ok else "OVER TARGET"


def time_builds(runs: int = 7) -> dict:
    """Time the full build, in a fresh process (as a reader runs it) and in-process."""
    cold, warm = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", f"{tmp}/site"],
                           check=True, capture_output=True)
            cold.append(time.perf_counter() - start)
            start = time.perf_counter()
            build(Path(tmp) / "site")
            warm.append(time.perf_counter() - start)
    return {"process": statistics.median(cold), "in_process": statistics.median(warm)}


def _wire_size(path: Path) -> int:
    """Return the bytes a reader downloads for a file: its precompressed .gz copy when the
    build wrote one (build.py serve, Netlify, Cloudflare and the nginx snippet send it), else
    the file itself."""
    gz = path.with_name(path.name + ".gz")
    return (gz if gz.is_file() else path).stat().st_size


def page_weights(site: Path) -> list[tuple[str, int, int, int]]:
    """Return (page, HTML bytes, bytes with its CSS and JS, the same as downloaded) for every
    built page: the download counts each file's gzip copy, as the site's headers serve it."""
    rows = []
    for html_path in sorted(site.rglob("index.html")):
        html = html_path.read_text(encoding="utf-8")
        mounted = [m for name in widgets.named(html)  # each widget's module, by its built name
                   for m in (site / "static" / "js").glob(widgets.module(name).replace(".js", ".*.js"))
                   if hashing.is_hashed(m.name)]
        assets: set[Path] = set()
        for href in _ASSET.findall(html):
            asset = (html_path.parent / href).resolve()
            assets |= modules.graph(asset, *mounted) if asset.suffix in (".js", ".mjs") else {asset}
        files = [html_path, *(a for a in assets if a.is_file())]
        total = sum(f.stat().st_size for f in files)
        wire = sum(_wire_size(f) for f in files)
        rows.append((str(html_path.parent.relative_to(site)), html_path.stat().st_size, total, wire))
    return rows


def main(browser: bool = True) -> int:
    """Print every figure with its target; return 0 (figures, not a test)."""
    times = time_builds()
    print(f"build, fresh process (median of 7): {times['process']:.3f} s "
          f"[target < {BUILD_TARGET_S:.1f} s: {_verdict(times['process'] < BUILD_TARGET_S)}]")
    print(f"build, in-process (median of 7):    {times['in_process']:.3f} s")
    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp) / "site")
        print(f"\n{'page':<24}{'HTML':>10}{'with CSS+JS':>14}{'downloaded':>12}   "
              f"target: downloaded < {PAGE_TARGET_BYTES:,} B")
        for page, html, total, wire in page_weights(Path(tmp) / "site"):
            name = "/" if page == "." else f"/{page}/"
            print(f"{name:<24}{html:>10,}{total:>14,}{wire:>12,}   {_verdict(wire < PAGE_TARGET_BYTES)}")
        if browser:
            from .browser_benchmark import report, run
            from .browser_transfer import report_transfer, transfer
            from .lighthouse import report_lighthouse, scores

            report(run(Path(tmp) / "site"))
            report_transfer(transfer(Path(tmp) / "site"))
            report_lighthouse(scores(Path(tmp) / "site"))
    return 0
