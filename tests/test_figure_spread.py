"""tools/figure-spread: a figure's facts live in the files named after it (issue 37)."""

from __future__ import annotations

import doctest
import importlib.machinery
import importlib.util
import shutil
import subprocess
from pathlib import Path
from attention.protocol import registry

ROOT = Path(__file__).resolve().parent.parent
_loader = importlib.machinery.SourceFileLoader("figure_spread", str(ROOT / "tools" / "figure-spread"))
_spec = importlib.util.spec_from_loader("figure_spread", _loader)
figure_spread = importlib.util.module_from_spec(_spec)
_loader.exec_module(figure_spread)

# Besides its own files, a figure is named by the line in its chapter that places it, and by at
# most one other file: for the figures a notebook draws (FIG-002, and the bench's 004 to 006),
# the bundle's static import of its widget module (attention_notebook/js/widget.js), which a
# bundler must see spelled.
MOST = 2


def test_its_examples():
    assert doctest.testmod(figure_spread).failed == 0


def test_each_figure_is_named_in_its_chapter_and_at_most_one_other_file():
    spread = figure_spread.spread()
    assert len(spread) == len(registry.FIGURES)
    for number, files in spread.items():
        assert len(files) <= MOST, (number, files)
        assert any(f.startswith("templates/chapters/") for f in files), (number, files)


def test_it_finds_a_figure_named_outside_its_files(tmp_path):
    """A copy of the repository with FIG-005 named in one more module: counted."""
    if not shutil.which("git"):
        raise AssertionError("git is needed")
    copy = tmp_path / "repo"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(copy)], check=True)
    before = len(figure_spread.spread(copy)["FIG-005"])
    (copy / "sitebuild" / "answers.py").write_text(
        (ROOT / "sitebuild" / "answers.py").read_text(encoding="utf-8") + "\nSHOWN = '#fig-005 tr'\n",
        encoding="utf-8")
    assert len(figure_spread.spread(copy)["FIG-005"]) == before + 1
