"""What the notebook figures show, read from a page, and what the core computes for a state:
the tests compare the two (every expected number is computed here, by attention/)."""

from __future__ import annotations

from attention import bench_view, figures
from attention.bench_input import BenchInputError

# The first element matching a selector, in the document or in any open shadow root (marimo
# draws each widget in one).
FIND = """const find = (selector, node = document) => {
  const hit = node.querySelector(selector);
  if (hit) return hit;
  for (const host of node.querySelectorAll('*')) {
    const deep = host.shadowRoot && find(selector, host.shadowRoot);
    if (deep) return deep;
  }
  return null;
};"""
# Within an element holding the figures (scope: a CSS selector), the texts of each row:
# FIG-005's q·k, ÷√d, ÷T, e^z and weight; FIG-002's score, scaled, weight and contribution.
READ_BENCH = """(scope) => {
  """ + FIND + """
  const root = find(scope);
  const rows = [...root.querySelectorAll('#fig-005 tbody[data-bind="rows"] tr')];
  return {
    query: root.querySelector('#fig-005 tr.is-query')?.dataset.index,
    rows: rows.map((tr) => [...[...tr.querySelectorAll(':scope > td.num')].slice(1),
                            tr.querySelector('td.weight .num')].map((td) => td.textContent)),
    matrix: [...root.querySelectorAll('#fig-006 tbody tr.is-query td.m')].map((td) => td.textContent),
    summary: root.querySelector('#fig-004 [data-bind="summary"]').textContent,
  };
}"""
READ_FIG_002 = """(scope) => {
  """ + FIND + """
  const root = find(scope);
  return {
    query: root.querySelector('#fig-002 [data-bind="query"]').textContent,
    rows: [...root.querySelectorAll('#fig-002 tbody tr[data-query]')].map((tr) =>
      ['score', 'scaled', 'weight', 'contribution'].map((f) =>
        tr.querySelector(`[data-bind="${f}"]`).textContent)),
    output: root.querySelector('#fig-002 [data-bind="output"]').textContent,
  };
}"""


def bench_expected(**state) -> dict:
    """The numbers the core computes for a bench state, in READ_BENCH's shape."""
    v = bench_view.view(**state)
    q = v["query"]["index"]
    masks = {"f": "later", "u": "none", "s": "shut"}
    return {
        "query": str(q),
        "rows": [[r[k]["text"] for k in ("dot", "scaled", "tempered", "exp", "weight")]
                 for r in v["rows"]],
        "matrix": [c[0] if c else masks.get(m, "shut") for c, m in zip(v["matrix"][q], v["masks"][q])],
        "summary": v["summary"],
    }


def fig_002_expected(query: str) -> dict:
    """The numbers the core computes for FIG-002's query, in READ_FIG_002's shape."""
    f = figures.fig_002.data(query)
    return {"query": f["query"]["token"],
            "rows": [[r[k]["text"] for k in ("score", "scaled", "weight", "contribution")]
                     for r in f["rows"]],
            "output": f["output"]["text"]}


def lexicon_message(sentence: str) -> str:
    """The message the core gives for a sentence with a word outside the lexicon."""
    try:
        bench_view.view(sentence=sentence)
    except BenchInputError as error:
        return str(error)
    raise AssertionError(f"{sentence!r} is a bench sentence")
