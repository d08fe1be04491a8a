"""The executed example as nbconvert's HTML, read with no kernel and every other origin
blocked: each figure reads as itself, for its last state, with the core's numbers. Also when
nbconvert executes it (saving the widget state, which would make its HTML ask a CDN for a
widget manager) with the README's command."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys

import nbformat
from nbclient import NotebookClient

from .conftest import EXAMPLE, ROOT, SHOTS, isolated_env
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

    read_offline(browser, html, "nbconvert-bench.png")


def read_offline(browser, html, shot: str) -> None:
    """Open nbconvert's HTML with every request but file:// refused: each figure reads as
    itself, for the example's last state, with the core's numbers and the site's styles."""
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
    page.locator(bench).screenshot(path=SHOTS / shot)
    assert not [u for u in blocked if "attention" in u]  # nothing of the figures is elsewhere
    context.close()


def readme_export() -> list[str]:
    """The README's command that writes the example's HTML for reading offline."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(m.group(0) for m in re.finditer(r"^jupyter nbconvert .*$", text, re.M))
    return shlex.split(line)


def test_the_readmes_export_reads_offline_when_nbconvert_executes_the_notebook(
        browser, tmp_path, monkeypatch):
    """`jupyter nbconvert --execute` saves the widget state (nbclient's default): plain, its
    HTML shows each widget's view alone, for a widget manager from a CDN, and offline no
    figure at all (a new user's pass in review 4). The README's command shows the figures."""
    for name, value in isolated_env(tmp_path).items():
        monkeypatch.setenv(name, value)
    command = readme_export()
    assert command[:2] == ["jupyter", "nbconvert"] and "--execute" in command
    (tmp_path / "notebooks").mkdir()
    shutil.copy2(EXAMPLE, tmp_path / "notebooks" / EXAMPLE.name)
    subprocess.run([sys.executable, "-m", *command], check=True, capture_output=True, cwd=tmp_path)
    html = tmp_path / "notebooks" / EXAMPLE.with_suffix(".html").name
    assert "application/vnd.jupyter.widget-view+json" not in html.read_text(encoding="utf-8")
    read_offline(browser, html, "nbconvert-executed-bench.png")
