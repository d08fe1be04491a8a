"""Bundle the notebook widget's module: its entry and the site's render modules it imports,
as one self-contained ES module (esbuild, pinned in package.json), so a notebook fetches
nothing from another origin and the site's renderers are not copied by hand.

One bundle per language of the catalog (``static/widget-<lang>.js``), each carrying that
language's messages alone, as a site page loads its own language's (i18n.js picks the one it
has): a widget speaks its language whatever the notebook page's, and two widgets of two
languages are two modules, even in a host that loads one module per distinct source.

The bundle is generated, never committed: ``make test`` writes it after ``npm ci``, and the
package build (setup.py) writes it before making an sdist, which then carries it, so a wheel
built from that sdist, or ``pip install`` of it, needs no Node.js.

Run ``python -m sitebuild.notebook_bundle`` to write them. Standard library only (setup.py
imports this module before any dependency is installed; attention.catalog is too).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from attention import catalog

ROOT = Path(__file__).resolve().parent.parent
ENTRY = Path("attention_notebook") / "js" / "widget.js"
STATIC = Path("attention_notebook") / "static"
SOURCES = ("attention_notebook/js/*.js", "templates/static/js/*.js", "templates/static/js/figures/*.js",
           "attention/strings/*.toml")


def bundle_of(lang: str) -> Path:
    """The bundle of one language, below the repository.

    >>> bundle_of("zh").as_posix()
    'attention_notebook/static/widget-zh.js'
    """
    return STATIC / f"widget-{lang}.js"


def bundles(root: Path = ROOT) -> list[Path]:
    """The bundles, one per language of the catalog (attention/strings/), English first.

    >>> [p.name for p in bundles()]
    ['widget-en.js', 'widget-ar.js', 'widget-zh.js']
    """
    return [bundle_of(lang) for lang in catalog.languages(root / "attention" / "strings")]


def stale(root: Path = ROOT) -> bool:
    """Return whether a bundle is missing or older than a module it is made from.

    >>> stale(Path("/nonexistent"))
    True
    """
    made = [root / b for b in bundles(root)]
    if not made or not all(b.is_file() for b in made):
        return True
    oldest = min(b.stat().st_mtime for b in made)
    return any(p.stat().st_mtime > oldest for pattern in SOURCES for p in root.glob(pattern))


def command(root: Path = ROOT, lang: str = catalog.SOURCE) -> list[str]:
    """Return the esbuild command line that writes a language's bundle (run in a copy of the
    sources whose strings modules are that language's).

    >>> command(Path("/r"))[1:4]
    ['attention_notebook/js/widget.js', '--bundle', '--format=esm']
    """
    return [str(root / "node_modules" / ".bin" / "esbuild"), ENTRY.as_posix(), "--bundle",
            "--format=esm", "--target=es2022", "--minify", "--legal-comments=none",
            f"--outfile={(root / bundle_of(lang)).as_posix()}", "--log-level=warning"]


def bundle(root: Path = ROOT, force: bool = False) -> list[Path]:
    """Write the bundles when they are stale (or always, with force); return their paths. Each
    is made from a copy of its sources, beside which the strings modules the site's build
    writes (sitebuild.strings: its language's alone; top-level await, as i18n.js loads them,
    needs ES2022) are written: no source to bundle them from."""
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
            templates, js = root / "templates", Path(tmp) / "templates" / "static" / "js"
            for lang in catalog.languages(root / "attention" / "strings"):
                words = strings.load(lang, root / "attention" / "strings")
                (js / strings.FILE).write_text(strings.loaders([words]), encoding="utf-8")
                (js / strings.file_of(lang)).write_text(strings.module(words, templates), encoding="utf-8")
                subprocess.run(command(root, lang), cwd=tmp, check=True)
    return [root / b for b in bundles(root)]


if __name__ == "__main__":
    print(bundle(force="--force" in sys.argv[1:]))
