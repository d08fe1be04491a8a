"""The notebook widgets in each of the catalog's languages, without a browser: a widget made
with lang="zh" or "ar" has its markup, the kernel's answers and its module's messages in that
language, and names it (and its direction) on its wrapper."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from attention import bench_view
from attention.catalog import languages, say, speaking
from attention_notebook import Bench, Fig002, Fig009
from sitebuild import notebook_bundle, strings


@pytest.fixture(scope="module", autouse=True)
def bundles():
    """The widget's modules, one per language (written when stale, as make test does)."""
    notebook_bundle.bundle()


def said_by(esm: str, key: str) -> str:
    """A message as a widget's module carries it (its strings module, bundled)."""
    found = re.search(re.escape(json.dumps(key)) + r':("(?:[^"\\]|\\.)*")', esm)
    assert found, f"{key} is not in the module"
    return json.loads(found.group(1))


def test_a_chinese_widget_says_its_words_in_chinese():
    figure = Fig002(query="grid", lang="zh")
    assert figure.lang == "zh" and repr(figure) == "Fig002(lang='zh', query='grid')"
    assert figure._html.startswith('<div class="attention-bench-fragment" lang="zh-Hans" dir="ltr">')
    with speaking("zh"):
        title = say("mixture.title")
    assert title != say("mixture.title")
    assert title in unescape(figure._html) and title in unescape(figure.static_html())
    assert 'lang="zh-Hans"' in figure.static_html()
    # its module's messages (the rows' buttons, the what-if panel) are Chinese's, English's English
    key = "mixture.make-query"
    assert said_by(figure._esm, key) == strings.load("zh").text(key) != strings.load("en").text(key)
    assert said_by(Fig002()._esm, key) == strings.load("en").text(key)


def test_a_chinese_bench_computes_its_notes_and_refuses_in_chinese():
    bench = Bench(head="sink", lang="zh")
    with speaking("zh"):
        summary = bench_view.view(sentence=bench.sentence, head="sink")["summary"]
        refused = None
        try:
            bench_view.view(sentence="the zzz")
        except bench_view.BenchInputError as error:
            refused = str(error)
    assert summary != bench_view.view(sentence=bench.sentence, head="sink")["summary"]
    assert summary in unescape(bench._html)
    with pytest.raises(ValueError) as caught:
        bench.sentence = "the zzz"
    assert refused and str(caught.value) == refused


def test_an_arabic_widget_is_right_to_left():
    layer = Fig009(lang="ar")
    assert layer._html.startswith('<div class="attention-bench-fragment" lang="ar" dir="rtl">')
    with speaking("ar"):
        title = say("layer.title")
    assert title in unescape(layer._html)
    assert said_by(layer._esm, "layer.step-label") == strings.load("ar").text("layer.step-label")
    # the stylesheet's right-to-left rules ask the wrapper, which says dir="rtl"
    assert '.attention-bench-fragment[dir="rtl"] :is(.num' in layer._css


def test_an_unknown_language_is_refused_naming_the_catalogs():
    with pytest.raises(ValueError, match=f"unknown language 'fr'; choose one of {', '.join(languages())}$"):
        Fig002(lang="fr")
