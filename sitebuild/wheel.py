"""Build the attention package's pure-Python wheel with pip, cached by a hash of its sources."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import attention

from .errors import BuildError
from .runtime import cache_root

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(attention.__file__).resolve().parent  # the package this build imports, wherever it is


def source_hash(root: Path = ROOT, package: Path = PACKAGE) -> str:
    """Return a short hash of everything that goes into the wheel."""
    h = hashlib.sha256()
    h.update(b"pyproject.toml\0" + (root / "pyproject.toml").read_bytes() + b"\0")
    # its modules and its string catalogs (the rest of attention/data stays out of the wheel)
    for path in sorted(p for p in package.rglob("*") if p.suffix in (".py", ".toml") and "__pycache__" not in p.parts):
        name = "attention/" + path.relative_to(package).as_posix()
        h.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def ensure_wheel(root: Path = ROOT, cache: Path | None = None, package: Path = PACKAGE) -> Path:
    """Return the path of the package's wheel, building it with pip when its sources changed:
    the attention package that this build imports (a scratch copy in a test adding a figure),
    with the project's pyproject.toml and README.md from ``root``."""
    folder = (cache or cache_root()) / "wheels" / source_hash(root, package)
    found = sorted(folder.glob("attention_bench-*-py3-none-any.whl")) if folder.is_dir() else []
    if found:
        return found[0]
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"  # a clean copy, so no stale build/ folder leaks into the wheel
        shutil.copytree(package, src / "attention",
                        ignore=shutil.ignore_patterns("__pycache__"))
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(root / name, src / name)
        result = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
             "--quiet", "--wheel-dir", tmp, str(src)],
            capture_output=True, text=True,
        )
        wheels = sorted(Path(tmp).glob("attention_bench-*-py3-none-any.whl"))
        if result.returncode != 0 or not wheels:
            raise BuildError(f"could not build the attention wheel with pip:\n{result.stderr}",
                             root / "pyproject.toml")
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / wheels[0].name
        shutil.copy2(wheels[0], target.with_suffix(".part"))
        target.with_suffix(".part").replace(target)
    return target
