"""The page's side of attention.protocol.delta in real Chromium: a query click at 40 words asks with the
matrix it holds and gets no matrix back, yet every number shown is the core's; a new sentence
gets its matrix in full. With Python ready, a quick answer never dims the figure."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import SharedPage, lent, within
from tests.browser.test_bench_page import READY, expected_state, settle, shown_state

FORTY = " ".join(["the", "pilot", "saw", "it", "and", "she", "left", "the", "car"] * 4 + ["the"] * 4)

# Record every request the page sends to its worker and every answer it gets back, and each
# answer Python computed ahead and sent unasked, with its request (the real worker: this only
# listens in).
RECORD = """() => { window.__sent = []; window.__got = []; window.__ahead = [];
  const Real = window.Worker;
  window.Worker = class extends Real {
    constructor(...args) { super(...args);
      this.addEventListener('message', (e) => {
        if (e.data.type === 'answer') window.__got.push(e.data.json);
        if (e.data.type === 'ahead') window.__ahead.push([e.data.json, e.data.answer]); }); }
    postMessage(data, ...rest) { if (data.type === 'request') window.__sent.push(data.json); return super.postMessage(data, ...rest); }
  }; }"""


@pytest.fixture(scope="module")
def _recorded(browser, server):
    """A page that records its worker traffic, kept for this module: its Python boots once."""
    shared = SharedPage(browser, server, init_script=f"({RECORD})()")
    yield shared
    shared.discard()


# Start each test's record empty, once every request sent so far has its answer.
RESTART_RECORD = within(30, """async () => {
  while (window.__got.length < window.__sent.length) await new Promise((r) => setTimeout(r, 10));
  window.__sent = []; window.__got = [];
}""")


@pytest.fixture
def bench(_recorded, request):
    with lent(_recorded, request) as shared:  # it ends clean: no error, nothing from elsewhere
        page = shared.open("bench/")
        page.wait_for_selector(READY, timeout=60000)
        page.evaluate(RESTART_RECORD)
        yield page


def bench_traffic(page) -> list[tuple[dict, dict]]:
    """The bench requests sent so far, each with its answer (quiz requests left out)."""
    sent = [json.loads(t) for t in page.evaluate("window.__sent")]
    got = [json.loads(t) for t in page.evaluate("window.__got")]
    pairs = list(zip(sent, got))
    return [(r, a) for r, a in pairs if r["figure"] == "bench"]


def use_sentence(page, text: str, word: str):
    page.fill("#bench-sentence", text)
    page.press("#bench-sentence", "Enter")
    settle(page, word)


def test_a_query_click_at_40_words_gets_no_matrix_and_shows_the_cores_numbers(bench):
    use_sentence(bench, FORTY, "it")
    request, answer = bench_traffic(bench)[-1]
    held = answer["data"]["matrix_id"]
    assert "matrix" in answer["data"] and len(answer["data"]["matrix"]) == 40
    bench.click('#fig-005 tr[data-index="5"] button')
    settle(bench, "she")
    bench.wait_for_function("n => window.__got.length >= n", arg=len(bench.evaluate("window.__sent")))
    # asked then, or computed ahead while the page waited (bench.js warms every row): either
    # way Python's answer to that very request
    ahead = [(json.loads(r), json.loads(a)) for r, a in bench.evaluate("window.__ahead")]
    request, answer = [(r, a) for r, a in bench_traffic(bench) + ahead if r.get("query") == 5][-1]
    assert request["have"] == held
    assert answer["ok"] and "matrix" not in answer["data"] and answer["data"]["matrix_id"] == held
    assert shown_state(bench) == expected_state(sentence=FORTY, query=5)  # matrix included


def test_a_changed_sentence_never_draws_old_numbers(bench):
    use_sentence(bench, FORTY, "it")
    held = bench_traffic(bench)[-1][1]["data"]["matrix_id"]
    use_sentence(bench, "the pilot saw the car and she left", "she")
    request, answer = bench_traffic(bench)[-1]
    assert request["have"] == held  # the page said which matrix it held ...
    assert answer["data"]["matrix_id"] != held and len(answer["data"]["matrix"]) == 8  # ... a new one came
    assert shown_state(bench) == expected_state(sentence="the pilot saw the car and she left")


# Count the times the figure is dimmed as waiting during one change that Python answers: a click
# on a row, or (t given) a temperature typed into its box.
DIMS = within(60, """async ([slow, row, t]) => {
  document.body.dataset.runtimeSlow = slow;
  const fig = document.getElementById('fig-004'), said = fig.querySelector('[data-bind="announce"]');
  const before = said.textContent;
  let dims = 0;
  const mo = new MutationObserver(() => { if (fig.classList.contains('is-waiting')) dims += 1; });
  mo.observe(fig, {attributes: true, attributeFilter: ['class']});
  if (t) {
    const box = document.querySelector('#bench-t');
    box.value = t;
    box.dispatchEvent(new Event('input', {bubbles: true}));
  } else document.querySelector(`#fig-005 tr[data-index="${row}"] button`).click();
  await new Promise((resolve) => { const t = setInterval(() => {
    if (said.textContent !== before && !fig.classList.contains('is-waiting')) { clearInterval(t); resolve(); } }, 5); });
  await new Promise((r) => setTimeout(r, 50));
  mo.disconnect();
  return dims;
}""")


def test_with_python_ready_a_figure_is_dimmed_only_when_its_answer_is_slow(bench):
    use_sentence(bench, FORTY, "it")  # a state outside the tables: Python answers every click
    assert bench.evaluate(DIMS, ["600000", 5, None]) == 0  # answered before the wait is shown
    # "slow" from the start: dimmed, then not. (A T typed: a state Python has not computed
    # ahead, as it does every other row once the page waits, bench.js: its answer is not at once.)
    assert bench.evaluate(DIMS, ["0", None, "1.37"]) >= 1
    assert "is-waiting" not in bench.get_attribute("#fig-004", "class")
