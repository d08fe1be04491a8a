"""The package as a user gets it: `python -m build` makes an sdist and, from it (no Node.js
there), a wheel carrying the widget's module, the templates and the core's data, both fit for
PyPI (twine check); installed into a fresh virtual environment, away from the repository, it
makes working widgets, and so does the wheel the site serves, installed from the site's address
with the [notebook] extra."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

from attention import bench_view, figures

ROOT = Path(__file__).resolve().parents[1]
# Run in the fresh environment: each widget made, its module, styles and static HTML read.
PROBE = """
import json, attention_notebook, attention_notebook.markup as markup
from attention_notebook import Bench, Fig002
bench, fig = Bench(query=2, T=0.5), Fig002(query="grid")
print(json.dumps({
    "module": attention_notebook.__file__, "templates": str(markup.templates()),
    "esm": bench._esm, "css": bench._css, "static": fig._repr_mimebundle_()["text/html"],
    "rows": [r["weight"]["text"] for r in bench._answer["answer"]["data"]["rows"]],
    "bench_html": bench._html, "state": [bench.sentence, bench.head, bench.query, bench.T]}))
"""


def test_the_built_wheel_makes_working_widgets_in_a_fresh_venv(tmp_path):
    out = tmp_path / "dist"
    # -P: the repository's build.py would otherwise shadow the build package; --no-isolation:
    # the build needs nothing fetched (setuptools is in the test environment already)
    subprocess.run([sys.executable, "-P", "-m", "build", "--no-isolation", "--outdir", str(out),
                    str(ROOT)], check=True, capture_output=True, cwd=tmp_path)
    wheel = next(out.glob("attention_bench-*-py3-none-any.whl"))
    # what a maintainer would upload to PyPI (README: python -P -m build, then twine upload)
    files = sorted(str(p) for p in out.iterdir())
    assert len(files) == 2  # the sdist and the wheel
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *files],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("attention_notebook/static/widget-en.js", "attention_notebook/static/widget-zh.js",
                 "attention_notebook/static/widget-ar.js", "attention_notebook/site_templates/static/style.css",
                 "attention_notebook/site_templates/figures/fig-004.html", "attention/data/trained.json",
                 "sitebuild/embed_heights.json"):
        assert name in names
    metadata = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith("METADATA"))).decode()
    assert "Requires-Dist: anywidget<0.12,>=0.11; extra == \"notebook\"" in metadata
    assert "Requires-Dist: numpy>=1.26\n" in metadata

    fresh = tmp_path / "fresh"
    venv.create(fresh, with_pip=True)
    python = fresh / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", str(wheel)],
                   check=True, cwd=tmp_path)
    # the dependencies come from this environment's site-packages, as a path only: no editable
    # install of the repository (a .pth there) is read, so only the wheel's own files are found
    site = Path(subprocess.check_output([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                        text=True).strip())
    (site / "test-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    probe = json.loads(subprocess.check_output([python, "-I", "-c", PROBE], cwd=tmp_path, text=True))

    assert probe["module"].startswith(str(fresh)) and probe["templates"].startswith(str(fresh))
    assert "render" in probe["esm"] and "import " not in probe["esm"]  # one self-contained module
    assert ".attention-bench-fragment.is-dark" in probe["css"]
    expected = bench_view.view(query=2, temperature="0.5")
    assert probe["rows"] == [r["weight"]["text"] for r in expected["rows"]]
    assert probe["state"] == [expected["sentence"]["text"], "coreference", 2, 0.5]
    assert 'id="fig-004"' in probe["bench_html"] and 'id="fig-006"' in probe["bench_html"]
    for row in figures.fig_002.data("grid")["rows"]:
        assert f'data-bind="weight">{row["weight"]["text"]}<' in probe["static"]


def test_a_fresh_venv_installs_the_notebook_package_from_the_served_site(built_site, tmp_path):
    """The embed guide's line, as a teacher runs it: pip install the [notebook] extra from the
    site's own address (its dependencies from PyPI), then a Bench widget in that environment."""
    import re

    from sitebuild.serve import make_server
    from tests.browser.conftest import running

    guide = (built_site / "embed" / "index.html").read_text(encoding="utf-8")
    line = re.search(r'<code data-snippet="notebook">(pip install [^<]+)</code>', guide).group(1)
    path = re.search(r"attention-bench/(notebook/attention_bench-[^\"]+\.whl)", line).group(1)
    fresh = tmp_path / "fresh"
    venv.create(fresh, with_pip=True)
    python = fresh / "bin" / "python"
    with running(make_server(built_site, 0, quiet=True)) as base:
        wanted = f"attention-bench[notebook] @ {base}{path}"
        assert line.replace("https://example.org/attention-bench/", base) == f'pip install "{wanted}"'
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wanted],
                       check=True, cwd=tmp_path, timeout=600)
    probe = json.loads(subprocess.check_output([python, "-I", "-c", PROBE], cwd=tmp_path, text=True))
    assert probe["module"].startswith(str(fresh))
    expected = bench_view.view(query=2, temperature="0.5")
    assert probe["rows"] == [r["weight"]["text"] for r in expected["rows"]]
    assert "render" in probe["esm"]
