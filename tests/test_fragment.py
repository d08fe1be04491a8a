"""One figure's static HTML for course pages that accept no frames."""

import subprocess
import sys

import pytest

from attention import figures
from sitebuild.errors import BuildError
from sitebuild.fragment import fragment
from sitebuild.site import ROOT


def test_fragment_shows_the_state_from_its_parameters():
    html = fragment("fig-002", "query=load")
    for row in figures.fig_002("load")["rows"]:
        assert row["weight"]["text"] in html
    assert html.startswith("<!-- Attention Bench:") and "<style>" not in html
    assert "<style>" in fragment("fig-001", css=True)


def test_fragment_refuses_bad_parameters_and_unknown_figures():
    with pytest.raises(BuildError, match="Ignored query=power"):
        fragment("fig-002", "query=power")
    with pytest.raises(BuildError, match="unknown figure 'fig-999'"):
        fragment("fig-999")
    with pytest.raises(BuildError, match="fig-001 takes no parameters"):
        fragment("fig-001", "query=grid")


def test_build_py_writes_a_fragment_file(tmp_path):
    out = tmp_path / "lab.html"
    subprocess.run([sys.executable, str(ROOT / "build.py"), "fragment", "lab", "--url", "q=0,0",
                    "--output", str(out)], check=True, capture_output=True)
    assert "[0.667, 1.333]" in out.read_text(encoding="utf-8")
