"""Bundle the notebook widget's module: its entry and the site's render modules it imports,
as one self-contained ES module (esbuild, pinned in package.json), so a notebook fetches
nothing from another origin and the site's renderers are not copied by hand.

The bundle is generated, never committed: ``make test`` writes it after ``npm ci``, and the
package build (setup.py) writes it before making an sdist, which then carries it, so a wheel
built from that sdist, or ``pip install`` of it, needs no Node.js.

Run ``python -m sitebuild.notebook_bundle`` to write it. Standard library only (setup.py
imports this module before any dependency is installed).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRY = Path("attention_notebook") / "js" / "widget.js"
BUNDLE = Path("attention_notebook") / "static" / "widget.js"
SOURCES = ("attention_notebook/js/*.js", "templates/static/js/*.js", "templates/static/js/figures/*.js",
           "attention/strings/*.toml")


def stale(root: Path = ROOT) -> bool:
    """Return whether the bundle is missing or older than a module it is made from.

    >>> stale(Path("/nonexistent"))
    True
    """
    bundle = root / BUNDLE
    if not bundle.is_file():
        return True
    made = bundle.stat().st_mtime
    return any(p.stat().st_mtime > made for pattern in SOURCES for p in root.glob(pattern))


def command(root: Path = ROOT) -> list[str]:
    """Return the esbuild command line that writes the bundle (run in a copy of the sources).

    >>> command(Path("/r"))[1:4]
    ['attention_notebook/js/widget.js', '--bundle', '--format=esm']
    """
    return [str(root / "node_modules" / ".bin" / "esbuild"), ENTRY.as_posix(), "--bundle",
            "--format=esm", "--target=es2022", "--minify", "--legal-comments=none",
            f"--outfile={(root / BUNDLE).as_posix()}", "--log-level=warning"]


def bundle(root: Path = ROOT, force: bool = False) -> Path:
    """Write the bundle when it is stale (or always, with force); return its path. It is made
    from a copy of its sources, beside which the strings modules the site's build writes
    (sitebuild.strings: English; top-level await, as i18n.js loads them, needs ES2022) are
    written: no source to bundle them from."""
    from . import strings

    if force or stale(root):
        tool = root / "node_modules" / ".bin" / "esbuild"
        if not tool.exists():
            raise RuntimeError(f"{tool} is missing: run `npm ci` first (esbuild, package.json)")
        with tempfile.TemporaryDirectory() as tmp:
            for pattern in SOURCES:
                for path in root.glob(pattern):
                    copy = Path(tmp) / path.relative_to(root)
                    copy.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(path, copy)
            templates, english = root / "templates", strings.load()
            js = Path(tmp) / "templates" / "static" / "js"
            (js / strings.FILE).write_text(strings.loaders([english]), encoding="utf-8")
            (js / strings.file_of(english.lang)).write_text(strings.module(english, templates), encoding="utf-8")
            subprocess.run(command(root), cwd=tmp, check=True)
    return root / BUNDLE


if __name__ == "__main__":
    print(bundle(force="--force" in sys.argv[1:]))
