"""The example notebook in a real JupyterLab: its cells run in a real kernel, a reader's clicks
in the output (a bench row, a FIG-002 row, a what-if toggle, a typed sentence) reach the kernel
through attention.protocol.bridge, and the numbers drawn are the core's."""

from __future__ import annotations

import json
import re

from attention import bench_view, figures, layer_view
from attention.catalog import say, speaking
from sitebuild import strings

from .conftest import EXAMPLE, SHOTS
from .figures import READ_BENCH, READ_FIG_002, bench_expected, fig_002_expected, lexicon_message

SENTENCE = "the engineer fixed the bridge before she left"  # as the example's cells set it
BENCH = ".attention-bench-widget:has(#fig-004)"
FIG_002 = ".attention-bench-widget:has(#fig-002)"
NOTEBOOK = "() => window.jupyterapp?.shell.currentWidget?.content?.widgets"


def run_cell(page, index: int) -> None:
    """Run the notebook's cell at index, as Shift+Enter on it would."""
    page.evaluate("""(index) => { const panel = jupyterapp.shell.currentWidget;
      panel.content.activeCellIndex = index; return jupyterapp.commands.execute('notebook:run-cell'); }""",
                  index)


def last_output(page) -> str:
    """The last cell's output, its lines joined (IPython wraps a long tuple)."""
    return " ".join(page.locator(".jp-Cell").last.locator(".jp-OutputArea-output").inner_text().split())


def open_notebook(browser, jupyterlab, name: str, height: int = 900):
    """Open a notebook of the server's folder in a fresh context and run all its cells."""
    base, token, _ = jupyterlab
    context = browser.new_context(viewport={"width": 1280, "height": height})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}lab/tree/{name}?token={token}&reset")
    page.wait_for_function(NOTEBOOK)
    page.evaluate("() => jupyterapp.shell.currentWidget.sessionContext.ready")
    page.wait_for_function("() => jupyterapp.shell.currentWidget.sessionContext.session?.kernel?.status === 'idle'")
    page.evaluate("() => jupyterapp.commands.execute('notebook:run-all-cells')")
    return context, page, errors


def open_example(browser, jupyterlab, height: int = 900):
    context, page, errors = open_notebook(browser, jupyterlab, EXAMPLE.name, height)
    page.wait_for_function("() => [...document.querySelectorAll('.jp-Cell')].at(-1)"
                           ".querySelector('.jp-OutputArea-output')?.textContent.includes('grid')")
    return context, page, errors


def test_clicks_and_typing_in_jupyterlab_are_computed_by_the_kernel(browser, jupyterlab):
    context, page, errors = open_example(browser, jupyterlab)
    # the cells set query 4 and T 0.5 from Python: the view redraws to them
    page.wait_for_selector(f'{BENCH} #fig-005 tr.is-query[data-index="4"]')
    page.wait_for_function(f"""() => document.querySelector('{BENCH} #bench-t').value === '0.5'""")
    assert page.evaluate(READ_BENCH, BENCH) == bench_expected(
        sentence=SENTENCE, query=4, temperature="0.5")

    page.locator(f'{BENCH} #fig-005 tr[data-index="2"] .row-choice').click()
    page.wait_for_selector(f'{BENCH} #fig-005 tr.is-query[data-index="2"]')
    assert page.evaluate(READ_BENCH, BENCH) == bench_expected(
        sentence=SENTENCE, query=2, temperature="0.5")

    page.locator(f'{FIG_002} tr[data-query="rises"]').click()
    page.wait_for_function(f"""() => document.querySelector('{FIG_002} [data-bind="query"]').textContent === 'rises'""")
    assert page.evaluate(READ_FIG_002, FIG_002) == fig_002_expected("rises")

    # a what-if toggle: the kernel computes the weights without the max-shift, which overflow
    page.locator(f'{BENCH} input[name="without"][value="shift"]').check()
    whatif = bench_view.view(sentence=SENTENCE, query=2, temperature="0.5", without=["shift"])["whatif"]
    page.locator(f'{BENCH} [data-whatif="sentence"]', has_text=whatif["sentence"]).wait_for()
    assert page.locator(f'{BENCH} [data-whatif="cf"]').first.text_content() == whatif["counterfactual"]["cell"]
    assert [t.strip() for t in page.locator(f'{BENCH} [data-whatif="real"]').all_text_contents()] == [
        k["real"]["text"] for k in whatif["keys"]]

    box = page.locator(f"{BENCH} #bench-sentence")
    box.fill("the zzz engineer")
    box.press("Enter")
    message = page.locator(f"{BENCH} #bench-sentence-msg")
    message.wait_for(state="visible")
    page.wait_for_function(f"""() => document.querySelector('{BENCH} #bench-sentence-msg').textContent !== ''""")
    assert message.text_content() == lexicon_message("the zzz engineer")
    assert page.evaluate(READ_BENCH, BENCH) == bench_expected(  # the last good state stays drawn
        sentence=SENTENCE, query=2, temperature="0.5", without=["shift"])

    run_cell(page, len(page.locator(".jp-Cell").all()) - 1)  # the kernel's traits hold the clicks
    page.wait_for_function("() => [...document.querySelectorAll('.jp-Cell')].at(-1)"
                           ".querySelector('.jp-OutputArea-output')?.textContent.includes(\"'rises'\")")
    assert last_output(page) == f"('rises', '{SENTENCE}', 2, 0.5, [], ['shift'])"

    # saved, each output's static HTML is for the state the reader left (written after that cell ran)
    page.evaluate("() => jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("() => !jupyterapp.shell.currentWidget.context.model.dirty")
    html = saved_html(jupyterlab[2] / EXAMPLE.name)
    word = bench_view.view(sentence=SENTENCE, query=2, temperature="0.5")["query"]["word"]
    assert set(re.findall(r'<strong data-bind="query-word">([^<]*)<', html["fig-005"])) == {word}
    assert re.findall(r'id="bench-t"[^>]*value="([^"]*)"', html["fig-004"]) == ["0.5"]
    assert re.findall(r'<strong data-bind="query">([^<]*)<', html["fig-002"]) == ["rises"]
    assert errors == []
    context.close()


def saved_html(path) -> dict[str, str]:
    """The static HTML of each figure in a saved notebook's outputs, by figure id."""
    found = {}
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            html = "".join(output.get("data", {}).get("text/html", ""))
            for figure in re.findall(r'<figure[^>]* id="(fig-\d+)"', html):
                found[figure] = html
    return found


def test_screenshots_in_jupyterlab_light_and_dark(browser, jupyterlab):
    """Screenshots for a person to look at (/tmp/shots24/); the dark theme marks the widget dark."""
    context, page, errors = open_example(browser, jupyterlab, height=4200)  # every figure in view
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_selector(f'{BENCH} #fig-005 tr.is-query[data-index="4"]')
    bench = page.locator(BENCH)
    for theme, dark in (("JupyterLab Light", False), ("JupyterLab Dark", True)):
        page.evaluate("(theme) => jupyterapp.commands.execute('apputils:change-theme', {theme})", theme)
        page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{str(not dark).lower()}'")
        page.wait_for_function(f"""() => document.querySelector('{BENCH} .attention-bench-fragment')
          .classList.contains('is-dark') === {str(dark).lower()}""")
        name = "dark" if dark else "light"
        page.locator(f"{FIG_002}").screenshot(path=SHOTS / f"jupyterlab-{name}-fig002.png")
        bench.locator("#fig-004").screenshot(path=SHOTS / f"jupyterlab-{name}-fig004.png")
        bench.locator("#fig-005").screenshot(path=SHOTS / f"jupyterlab-{name}-fig005.png")
        bench.locator("#fig-006").screenshot(path=SHOTS / f"jupyterlab-{name}-fig006.png")
    assert errors == []
    context.close()


LAYER_NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "layer", "metadata": {}, "outputs": [],
               "source": ["from attention_notebook import Fig009\n", "layer = Fig009()\n", "layer"]},
              {"cell_type": "code", "execution_count": None, "id": "state", "metadata": {}, "outputs": [],
               "source": ["layer.focus, layer.without, layer.silent"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5}
LAYER = ".attention-bench-widget:has(#fig-009)"
READ_LAYER = """(scope) => [...document.querySelectorAll(scope + ' .layer-stream tbody tr')].map((tr) =>
  [...tr.querySelectorAll('td[data-cell] .v')].map((e) => e.textContent))"""


def test_fig009_in_jupyterlab_follows_a_word_and_switches_a_part_off_in_the_kernel(browser, jupyterlab):
    """FIG-009's widget: a click on a word and a switch reach the kernel, which answers with the
    core's numbers; the traits then hold the reader's state."""
    (jupyterlab[2] / "layer.ipynb").write_text(json.dumps(LAYER_NOTEBOOK), encoding="utf-8")
    context, page, errors = open_notebook(browser, jupyterlab, "layer.ipynb", height=2400)
    page.wait_for_selector(f"{LAYER} .layer-words button", timeout=60000)
    page.locator(f'{LAYER} .layer-words button >> text="bridge"').click()
    page.wait_for_function(f"""() => document.querySelector('{LAYER} [data-bind="focus"]').textContent === 'bridge'""")
    expected = [[c["text"] for c in r["cells"]] for r in layer_view.view(focus=4)["rows"]]
    assert page.evaluate(READ_LAYER, LAYER) == expected
    page.locator(f'{LAYER} input[name="part"][value="mlp"]').uncheck()
    page.wait_for_function(f"""() => !document.querySelector('{LAYER} [data-bind="changed"]').hidden""")
    expected = [[c["text"] for c in r["cells"]] for r in layer_view.view(focus=4, without=["mlp"])["rows"]]
    assert page.evaluate(READ_LAYER, LAYER) == expected
    run_cell(page, 1)
    page.wait_for_function("() => [...document.querySelectorAll('.jp-Cell')].at(-1)"
                           ".querySelector('.jp-OutputArea-output')?.textContent.includes('mlp')")
    assert last_output(page) == "(4, ['mlp'], '')"
    assert errors == []
    context.close()


LANGUAGES_NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "zh", "metadata": {}, "outputs": [],
               "source": ["from attention_notebook import Fig002\n", "Fig002(query=\"grid\", lang=\"zh\")"]},
              {"cell_type": "code", "execution_count": None, "id": "ar", "metadata": {}, "outputs": [],
               "source": ["Fig002(query=\"grid\", lang=\"ar\")"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5}


def test_widgets_in_chinese_and_arabic_speak_their_language_side_by_side(browser, jupyterlab):
    """A widget made with lang="zh" or "ar": the kernel's markup, the module's own words (the
    rows' buttons) and the kernel's answers to a click are in its language, the Arabic one
    right to left; two languages in one notebook each keep their own."""
    (jupyterlab[2] / "languages.ipynb").write_text(json.dumps(LANGUAGES_NOTEBOOK), encoding="utf-8")
    context, page, errors = open_notebook(browser, jupyterlab, "languages.ipynb")
    catalogs = {lang: strings.load(lang) for lang in ("zh", "ar")}
    for lang, words in catalogs.items():
        figure = f'.attention-bench-fragment[lang="{words.tag}"] #fig-002'
        button = page.locator(f'{figure} tr[data-query="load"] .row-choice')
        button.wait_for(timeout=60000)
        isolate = ("\u2068{}\u2069" if words.dir == "rtl" else "{}").format  # as i18n.js sets a value apart
        assert button.get_attribute("aria-label") == words.text("mixture.make-query").replace("{word}", isolate("load"))
        with speaking(lang):
            title = say("mixture.title")
        assert title in page.locator(figure).inner_text()
        direction = page.locator(f'.attention-bench-fragment[lang="{words.tag}"]').evaluate(
            "(e) => getComputedStyle(e).direction")
        assert direction == words.dir
        button.click()  # the kernel answers in the widget's language
        with speaking(lang):
            said = figures.fig_002.data("load")["said"]
        page.wait_for_function(f"""() => document.querySelector('{figure} [data-bind="said"]').textContent === {json.dumps(said)}""")
    assert errors == []
    context.close()
