"""A what-if row whose naive softmax overflows is written once: the build's markup (a
fragment of that state, JavaScript off) and the live page show the same cells."""

from __future__ import annotations

from attention import bench_view
from sitebuild.fragment import fragment
from tests.browser.test_whatif import BENCH_READY, open_page, panel_state

STATE = "without=shift&t=0.05"


def test_an_overflowing_row_reads_the_same_built_and_live(desktop, no_js):
    w = bench_view.view(temperature="0.05", without=["shift"])["whatif"]
    assert w["counterfactual"]["failure"] == "overflow"
    no_js.set_content(fragment("bench", STATE))
    built = panel_state(no_js, ".whatif")
    panel = open_page(desktop, "bench/?" + STATE, BENCH_READY, w["sentence"])
    live = panel_state(desktop.page, panel)
    assert built == live
    # one cell stands for the row: it says there are no weights, the sentence says why
    assert live["cf"] == ["no weights"] + [None] * 7
    assert live["sentence"].startswith("Without the max-shift, eᶻ of “engineer” overflows (as does "
                                       "that of “she”)")
    assert desktop.page.get_attribute(f"{panel} td.failure", "rowspan") == "8"
