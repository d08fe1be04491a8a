"""The executed example as nbconvert's HTML, read with no kernel and every other origin
blocked: each figure reads as itself, for its last state, with the core's numbers."""

from __future__ import annotations

import subprocess
import sys

import nbformat
from nbclient import NotebookClient

from .conftest import EXAMPLE, SHOTS, isolated_env
from .figures import READ_BENCH, READ_FIG_002, bench_expected, fig_002_expected

SENTENCE = "the engineer fixed the bridge before she left"


def executed(folder):
    """Run the example in a real kernel and save it as JupyterLab saves a notebook (outputs,
    no widget state: with one, nbconvert would draw the widget with its CDN's manager)."""
    nb = nbformat.read(EXAMPLE, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", store_widget_state=False,
                   resources={"metadata": {"path": str(folder)}}).execute()
    path = folder / EXAMPLE.name
    nbformat.write(nb, path)
    return path


def test_nbconvert_html_shows_each_figure_for_its_last_state(browser, tmp_path, monkeypatch):
    for name, value in isolated_env(tmp_path).items():
        monkeypatch.setenv(name, value)
    notebook = executed(tmp_path)
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", str(notebook)],
                   check=True, capture_output=True, cwd=tmp_path)
    html = notebook.with_suffix(".html")
    text = html.read_text(encoding="utf-8")
    assert "Loading widget" not in text

    context = browser.new_context(viewport={"width": 1280, "height": 3600})  # every figure in view
    blocked = []

    def only_local(route):
        if route.request.url.startswith("file://"):
            return route.continue_()
        blocked.append(route.request.url)
        return route.abort()

    context.route("**/*", only_local)
    page = context.new_page()
    page.goto(html.as_uri())
    bench = ".attention-bench-fragment:has(#fig-004)"
    fig_002 = ".attention-bench-fragment:has(#fig-002)"
    page.wait_for_selector(f"{bench} #fig-006")
    # the cells set query 4 and T 0.5 after showing the bench: its static HTML is for them
    assert page.evaluate(READ_BENCH, bench) == bench_expected(
        sentence=SENTENCE, query=4, temperature="0.5")
    assert page.evaluate(READ_FIG_002, fig_002) == fig_002_expected("grid")
    for figure in ("fig-002", "fig-004", "fig-005", "fig-006"):
        assert page.locator(f"#{figure}").is_visible()
    # the figures' look comes with them: the scoped stylesheet, not a bare table
    label = page.locator(f"{fig_002} .fig-id")
    assert label.evaluate("(e) => getComputedStyle(e).borderTopStyle") == "solid"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(bench).screenshot(path=SHOTS / "nbconvert-bench.png")
    assert not [u for u in blocked if "attention" in u]  # nothing of the figures is elsewhere
    context.close()
