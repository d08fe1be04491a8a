"""The package a notebook installs, served by the site: the project's own wheel (the core, the
notebook figures and the site builder that renders their markup), at one address that does
not change from build to build, so a teacher's install line keeps working:

    pip install "attention-bench[notebook] @ https://<the site>/notebook/attention_bench-0.1.0-py3-none-any.whl"

It is built as a user builds it (``python -m build``: an sdist, then the wheel from it),
cached by a hash of its sources. The sdist needs the widget's module, which esbuild bundles
(``npm ci`` installs it): without esbuild and without a bundle already written, the site is
built without this wheel, and the embed guide says so.
"""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import notebook_bundle
from .runtime import cache_root

__all__ = ["FOLDER", "SOURCES", "available", "ensure_notebook_wheel", "source_hash"]

ROOT = Path(__file__).resolve().parent.parent
FOLDER = "notebook"  # its folder on the site: revalidated, not cached for a year (sitebuild.headers)
# what goes into it: the packages' files, the templates it renders, the page modules bundled
# into its widget, the build's own files
SOURCES = ("attention", "attention_notebook", "sitebuild", "templates/figures", "templates/handout",
           "templates/static/style.css",
           "templates/static/js", "templates/claims.toml", "pyproject.toml", "setup.py", "README.md",
           "MANIFEST.in")
# what its sdist is built from, copied away from the checkout: a build there would leave build/
# and an egg-info behind, and two test workers building the site at once would meet in them
COPIED = ("attention", "attention_notebook", "sitebuild", "templates", "pyproject.toml", "setup.py",
          "README.md", "MANIFEST.in", "package.json", "package-lock.json")


def source_hash(root: Path = ROOT) -> str:
    """A short hash of every file that goes into the wheel (the bundle's sources included)."""
    h = hashlib.sha256()
    for name in SOURCES:
        path = root / name
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for f in files:
            rel = f.relative_to(root).as_posix()
            if "__pycache__" in rel or rel.endswith((".pyc", ".npz")) or rel.startswith("attention_notebook/static/"):
                continue
            h.update(rel.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def available(root: Path = ROOT) -> bool:
    """Whether this checkout can build it: esbuild to bundle the widget, or its bundles written."""
    return (root / "node_modules" / ".bin" / "esbuild").exists() or all(
        (root / b).is_file() for b in notebook_bundle.bundles(root))


def ensure_notebook_wheel(root: Path = ROOT, cache: Path | None = None) -> Path | None:
    """Return the notebook wheel's path, building it when its sources changed; None when this
    checkout cannot build it (see ``available``)."""
    if not available(root):
        return None
    folder = (cache or cache_root()) / "notebook-wheels" / source_hash(root)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / ".lock", "w") as lock:  # one build at a time; the others wait, then find it
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = sorted(folder.glob("attention_bench-*-py3-none-any.whl")) if folder.is_dir() else []
        if found:
            return found[0]
        if (root / "node_modules" / ".bin" / "esbuild").exists():
            notebook_bundle.bundle(root)  # the widget's module, as the sdist carries it
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "src"
            for name in COPIED:
                if (root / name).is_dir():
                    shutil.copytree(root / name, src / name, ignore=shutil.ignore_patterns(
                        "__pycache__", "*.egg-info", "*.npz", "node_modules"))
                elif (root / name).is_file():
                    src.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(root / name, src / name)
            # -P: as from the checkout, where its build.py would shadow the build package
            result = subprocess.run([sys.executable, "-P", "-m", "build", "--no-isolation", "--outdir",
                                     str(Path(tmp) / "dist"), str(src)], capture_output=True, text=True, cwd=tmp)
            wheels = sorted((Path(tmp) / "dist").glob("attention_bench-*-py3-none-any.whl"))
            if result.returncode != 0 or not wheels:
                from .errors import BuildError
                raise BuildError(f"could not build the notebook wheel:\n{result.stderr[-2000:]}", root / "setup.py")
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / wheels[0].name
            shutil.copy2(wheels[0], target.with_suffix(".part"))
            target.with_suffix(".part").replace(target)
    return target
