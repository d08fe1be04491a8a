"""The package's build steps beyond pyproject.toml: the notebook widget's files.

Before an sdist, the widget's module is bundled (esbuild, from npm; sitebuild/notebook_bundle.py)
so that the sdist carries it and a wheel built from it, or `pip install` of it, needs no
Node.js. Building a wheel copies the site templates the figures are rendered from into
attention_notebook/site_templates/, and the core's data files they cite, so an installed wheel
renders them without the repository.
"""

import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
TEMPLATES = ("claims.toml", "static/style.css", "figures", "handout")  # what sitebuild.fragment reads


def ensure_bundle() -> None:
    """Write the widget's bundle when esbuild is here; keep the one an sdist carries."""
    from sitebuild import notebook_bundle

    if not (ROOT / "node_modules" / ".bin" / "esbuild").exists():
        if not all((ROOT / b).is_file() for b in notebook_bundle.bundles(ROOT)):
            raise SystemExit("the notebook widget's bundles are missing and esbuild is not "
                             "installed: run `npm ci` first")
        return
    notebook_bundle.bundle(ROOT)


def copy_templates(target: Path) -> None:
    """Copy the templates the notebook figures are rendered from into the build."""
    for name in TEMPLATES:
        source, dest = ROOT / "templates" / name, target / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, dest, dirs_exist_ok=True)
        else:
            shutil.copy2(source, dest)


def copy_data(target: Path) -> None:
    """Copy the core's data files (the trained model's measurements, which the claims the
    figures cite read) into the build: the Pyodide wheel, built without this file, omits them."""
    target.mkdir(parents=True, exist_ok=True)
    for path in (ROOT / "attention" / "data").glob("*.json"):
        shutil.copy2(path, target / path.name)


class BuildPy(build_py):
    def run(self):
        # An editable install (make serve, make test) uses the repository's own files: its
        # bundle is written by `make test` after `npm ci`, its templates are read in place.
        if not (ROOT / "attention_notebook").is_dir() or self.editable_mode:
            return super().run()  # the Pyodide wheel's copy holds attention/ alone
        ensure_bundle()
        super().run()
        copy_templates(Path(self.build_lib) / "attention_notebook" / "site_templates")
        copy_data(Path(self.build_lib) / "attention" / "data")


class Sdist(sdist):
    def run(self):
        ensure_bundle()
        super().run()


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})
