"""A figure's numbers as a table, for download as CSV or JSON: full precision, from the core.

Each export names its columns and gives one row per key (or per matrix cell), the
same quantities the figure shows, unrounded. Every row also carries the state it was
made from, and a JSON export has it as ``"state"``, so a file says what it shows; with
steps removed (``without``) the what-if columns follow the real ones.
"""

from __future__ import annotations

import math
import re

import numpy as np

from . import bench, bench_view, figures, lab, toy, whatif

__all__ = ["caption", "export_bench", "export_bench_matrix", "export_fig_001", "export_fig_002",
           "export_lab", "filename", "to_csv"]


def export_fig_001(state: dict) -> dict:
    """FIG-001: each token's input and its three roles."""
    rows = [[r["token"], *[x for role in "XQKV" for x in r[role]["value"]]]
            for r in figures.fig_001()["rows"]]
    cols = ["token"] + [f"{role}_{c}" for role in "XQKV" for c in (1, 2)]
    return {"columns": cols, "rows": rows}


def export_fig_002(state: dict) -> dict:
    """FIG-002: one query's scores, weights and weighted contributions; each row also names
    the query and carries the output (the contributions' sum), so a CSV stands on its own."""
    d = figures.fig_002(**state)
    query, out = d["query"]["token"], d["output"]["value"]
    rows = [[query, r["token"], r["score"]["value"], r["scaled"]["value"], r["weight"]["value"],
             *r["value"]["value"], *r["contribution"]["value"], *out] for r in d["rows"]]
    return {"columns": ["query", "key", "score", "scaled", "weight", "value_1", "value_2",
                        "contribution_1", "contribution_2", "output_1", "output_2"],
            "rows": rows, "query": query, "output": out}


def _finite(x: float):
    """A number as it goes into a file: None (an empty CSV cell) for an overflowed one."""
    x = float(x)
    return x if math.isfinite(x) else None


def _without(cf, r: int, c: int) -> list:
    """The what-if columns of one cell: steps removed, z, e^z, weight and failure."""
    failure = cf.failure[r]
    return ["+".join(cf.without), _finite(cf.z[r, c]), _finite(cf.exp[r, c]) if cf.allowed[r, c]
            else 0.0, None if failure else float(cf.weights[r, c]), failure or ""]


WITHOUT_COLUMNS = ["without", "without_z", "without_exp", "without_weight", "without_failure"]


def export_lab(state: dict) -> dict:
    """The lab: every stage for every key; each row also carries the state it was made
    from (q, T, the key's switch) and the output, so a file stands on its own."""
    d = lab.view(**state)
    stages = ("score", "scaled", "tempered", "shifted", "exp", "weight")
    q, out, t = d["query"]["value"], d["output"]["value"], d["temperature"]["value"]
    removed = tuple(d["whatif"]["without"])
    tr = toy.trace(q, mask=d["mask"], temperature=t)
    cf = whatif.counterfactual(tr.scores, tr.d_k, t, mask=[d["mask"]], without=removed)
    rows = [[*q, t, r["token"], r["allowed"], *[r[s]["value"] for s in stages], *out,
             *(_without(cf, 0, j) if removed else [])] for j, r in enumerate(d["rows"])]
    w = d["whatif"]
    return {"columns": ["q_1", "q_2", "T", "key", "allowed", *stages, "output_1", "output_2",
                        *(WITHOUT_COLUMNS if removed else [])],
            "rows": rows, "query": q, "temperature": t, "output": out,
            "state": {"q": d["fields"], "T": d["temperature"]["text"],
                      "allowed": [r["token"] for r in d["rows"] if r["allowed"]],
                      "without": list(removed)},
            **({"without": {"steps": list(removed), "failure": w["counterfactual"]["failure"],
                            "message": w["counterfactual"]["message"],
                            "output": w["output"]["value"] if w["output"] else None,
                            "sentence": w["sentence"]}} if removed else {})}


def _bench_state(d: dict) -> dict:
    """The bench state an export was made from, the query as position and word."""
    s = d["state"]
    return {"sentence": s["sentence"], "head": s["head"],
            "query": {"index": s["query"], "word": d["query"]["word"]},
            "T": s["temperature"], "shut": [{"index": j, "word": d["sentence"]["words"][j]}
                                            for j in s["shut"]],
            "without": d["whatif"]["without"]}


def _bench_cf(d: dict):
    """The counterfactual of the whole sentence under the bench's state, or None."""
    removed = tuple(d["whatif"]["without"])
    if not removed:
        return None
    words, s = d["sentence"]["words"], d["state"]
    n = len(words)
    tr = bench.trace(words, s["head"], d["temperature"]["value"])
    shut = np.zeros(n, dtype=bool)
    shut[s["shut"]] = True
    return whatif.counterfactual(tr.scores, tr.d_k, tr.temperature,
                                 mask=np.broadcast_to(~shut, (n, n)),  # (n, n)
                                 causal=bench.causal_mask(n), without=removed)


def export_bench(state: dict) -> dict:
    """The bench's working table for the current query, each row carrying the state
    (sentence, head, query position and word, T); a later key and a shut one are told
    apart (``causal_masked``, ``shut``)."""
    d = bench_view.view(**state)
    s, i, cf = d["state"], d["query"]["index"], _bench_cf(d)
    lead = [s["sentence"], s["head"], i, d["query"]["word"], d["temperature"]["value"]]
    rows = [[*lead, r["index"], r["word"], r["future"], r["shut"], r["dot"]["value"],
             r["scaled"]["value"], r["tempered"]["value"], r["exp"]["value"],
             r["weight"]["value"], *(_without(cf, i, r["index"]) if cf else [])]
            for r in d["rows"]]
    return {"columns": ["sentence", "head", "query_j", "query_word", "T", "j", "word",
                        "causal_masked", "shut", "q_dot_k", "scaled", "tempered", "exp",
                        "weight", *(WITHOUT_COLUMNS if cf else [])],
            "rows": rows, "state": _bench_state(d), "head": d["head"]["name"],
            "query": {"index": i, "word": d["query"]["word"]},
            "temperature": d["temperature"]["value"], "sentence": d["sentence"]["text"],
            **({"without": {"steps": d["whatif"]["without"],
                            "sentence": d["whatif"]["sentence"]}} if cf else {})}


def export_bench_matrix(state: dict) -> dict:
    """The whole attention matrix of the current head: one row per (query, key) pair."""
    d = bench_view.view(**state)
    s, words, cf = d["state"], d["sentence"]["words"], _bench_cf(d)
    weights = bench_view.matrix_weights(**state)
    lead = [s["sentence"], s["head"], d["temperature"]["value"]]
    rows = [[*lead, r, words[r], c, words[c], c > r, c in s["shut"], weights[r][c],
             *(_without(cf, r, c) if cf else [])]
            for r in range(len(words)) for c in range(len(words))]
    return {"columns": ["sentence", "head", "T", "query_j", "query_word", "key_j", "key_word",
                        "causal_masked", "shut", "weight", *(WITHOUT_COLUMNS if cf else [])],
            "rows": rows, "state": {k: v for k, v in _bench_state(d).items() if k != "query"},
            "head": d["head"]["name"], "temperature": d["temperature"]["value"],
            "sentence": d["sentence"]["text"]}


def _slug(text: str) -> str:
    """Keep a file name to letters, digits, dots and dashes."""
    return re.sub(r"[^A-Za-z0-9.\-]+", "_", text).strip("_")


def filename(table: dict) -> str:
    """Name a download by its state, without the extension.

    >>> from attention.registry import export
    >>> filename(export("fig-004", {"query": 6}))
    'attention-bench-fig-004-coreference-q6-T1'
    >>> filename(export("fig-003", {"query": ["-0.5", "2"], "without": ["shift"]}))
    'attention-bench-fig-003-q-0.5_2-T1-without-shift'
    """
    parts = ["attention-bench", table["figure"]]
    state = table.get("state")
    if state and "q" in state:  # the lab's
        parts += ["q" + "_".join(state["q"]), f"T{state['T']}"]
        if len(state["allowed"]) < len(toy.TOKENS):
            parts.append("allowed-" + "_".join(state["allowed"]))
    elif state:
        parts.append(state["head"])
        if "query" in state:
            parts.append(f"q{state['query']['index']}")
        parts.append(f"T{state['T']}")
        if state["shut"]:
            parts.append("shut" + "_".join(str(s["index"]) for s in state["shut"]))
    elif table.get("query"):
        parts.append(str(table["query"]))
    if state and state.get("without"):
        parts += ["without", "-".join(state["without"])]
    return "-".join(_slug(p) for p in parts)


CAPTION_CHARS = 96  # a caption line under a downloaded drawing (800 units wide, 14-unit text)


def caption(table: dict) -> list[str]:
    """Say in words which state a download shows, in lines for the foot of its drawing: a
    drawing put on a slide otherwise carries its sentence, head and T only in the file's name.

    >>> from attention.registry import export
    >>> caption(export("fig-004", {"query": 6}))
    ['Attention Bench, FIG-004: head coreference, query “she”\xa0(word\xa06), T = 1.', 'Sentence: “the engineer fixed the bridge before she left”.']
    >>> caption(export("fig-003", {"query": ["-0.5", "2"], "without": ["shift"]}))
    ['Attention Bench, FIG-003: q = [-0.5, 2], T = 1, every key allowed, without the max-shift.']
    """  # noqa: E501 (a doctest shows its output whole, on one line)
    said = f"Attention Bench, {table['figure'].upper()}"
    state = table.get("state")
    parts, sentence = [], ""
    if state and "q" in state:  # the lab's
        everyone = len(state["allowed"]) == len(toy.TOKENS)
        parts = [f"q = [{', '.join(state['q'])}]", f"T = {state['T']}",
                 "every key allowed" if everyone else f"keys allowed: {', '.join(state['allowed']) or 'none'}"]
    elif state:
        parts = [f"head {state['head']}"]
        if "query" in state:
            parts.append(f"query “{state['query']['word']}”\u00a0(word\u00a0{state['query']['index']})")
        parts.append(f"T = {state['T']}")
        if state["shut"]:
            parts.append("shut: " + ", ".join(f"“{s['word']}”\u00a0(word\u00a0{s['index']})"
                                              for s in state["shut"]))
        sentence = f"Sentence: “{state['sentence']}”."
    elif table.get("query"):
        parts = [f"query “{table['query']}”"]
    if state and state.get("without"):
        parts.append("without " + " and ".join(whatif.LABELS[w] for w in state["without"]))
    text = said + (": " + ", ".join(parts) if parts else "") + "."
    return _lines(text) + (_lines(sentence) if sentence else [])


def _lines(text: str, width: int = CAPTION_CHARS) -> list[str]:
    """Break text at spaces into lines of at most `width` characters (a longer word alone)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def to_csv(table: dict) -> str:
    """Write an export's columns and rows as CSV text (numbers at full precision).

    >>> print(to_csv({"columns": ["key", "weight"], "rows": [["grid", 0.5]]}), end="")
    key,weight
    grid,0.5
    """
    import csv  # only for a download: not on the runtime's start
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table["columns"])
    writer.writerows(table["rows"])
    return out.getvalue()
