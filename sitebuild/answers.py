"""Precomputed answers: every state one click away from what a live figure first shows.

At build time the bridge answers, for each live figure's default state and for the state
each of the site's own links opens (``href="../bench/?head=sink"``), every request that
one click sends (declared in ``attention.protocol.neighbours``). The tables ship as JSON under
``static/answers/``; the page draws a click found there at once, before Python has loaded.

The answers are computed by ``attention.protocol.bridge.handle_json`` running in the very runtime the
browser runs (Pyodide under Node, with the site's own wheel), so a table entry is byte for
byte what the browser's Python would answer; CPython's last bits can differ. They are
cached by a hash of the wheel, the runtime and the requests. Without Node, the build
falls back to CPython and says so (the texts shown agree; raw values may differ in the
last bit, which tests/test_parity.py would catch in CI, where Node is present).

A table file: ``{"schema": 1, "figure": str, "generator": {"runtime": str, "wheel": str},
"answers": [answer text, ...], "keys": {request key: index into answers}}``.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urljoin, urlsplit

from attention import trained_layer
from attention.catalog import SOURCE
from attention.protocol import bridge, neighbours, registry

from . import runtime

__all__ = ["DIR", "exports", "for_page", "link_states", "requests", "table_names", "tables",
           "widgets"]

DIR = "answers/"  # below static/
SCRIPT = Path(__file__).with_name("answers.mjs")
NODE_TIMEOUT = 300  # seconds
_HREF = re.compile(r'href="([^"#]*\?[^"#]*)(?:#[^"]*)?"')


def exports() -> dict[str, str]:
    """Each download (its figure's data-embed) and the table that holds its numbers: its
    state's, or one of its own named after it."""
    return {f.embed: f.table or f.embed for f in registry.FIGURES if f.export}


def table_names() -> list[str]:
    """The names of the tables, one per live state and per download's table."""
    return sorted({*registry.STATES, *exports().values()})


def widgets() -> dict[str, str]:
    """Each data-widget whose page fetches a table, and that table."""
    return {f.widget: f.table for f in registry.FIGURES if f.widget and f.table}


def _page_of() -> dict[str, str]:
    """Each page whose address sets a live state (a chapter, an embed), and that state."""
    return {**{f"{f.chapter}/": f.state for f in registry.FIGURES if f.state},
            **{f"embed/{name}/": f.state for f in registry.FIGURES if f.state
               for name in (f.embed, *f.aliases)}}  # an old address leads to the same state


def link_states(bodies: dict[str, str]) -> dict[str, list[dict]]:
    """Return, per figure, the URL parameters of every site link that opens a state.

    bodies maps a page's path below the root ("lab/") to its HTML.

    >>> link_states({"lab/": '<a href="../bench/?head=sink&amp;t=2#bench-lexicon">x</a>'})
    {'bench': [{'head': 'sink', 't': '2'}]}
    """
    found: dict[str, list[dict]] = {}
    pages = _page_of()
    for path, body in bodies.items():
        for href in _HREF.findall(body):
            target = urlsplit(urljoin("/" + path, html.unescape(href)))
            figure = pages.get(target.path.lstrip("/"))
            params = dict(parse_qsl(target.query, keep_blank_values=True))
            if figure and params and params not in found.setdefault(figure, []):
                found[figure].append(params)
    return {f: p for f, p in found.items() if p}


def _answer(request: dict, lang: str = SOURCE) -> dict:
    """The bridge's answer to a request in a language, decoded."""
    return json.loads(bridge.handle_json(in_language(json.dumps(request, ensure_ascii=False), lang)))


def requests(links: dict[str, list[dict]], lang: str = SOURCE) -> dict[str, list[dict]]:
    """Return every request each table answers in a language: one click from each figure's
    first states (an edition's own: its bench opens on a sentence in its language)."""
    out: dict[str, list[dict]] = {name: [] for name in table_names()}
    for figure in registry.STATES:
        linked = [{"figure": figure, "url": p} for p in links.get(figure, [])]
        starts = [{"figure": figure}, *linked]
        out[figure] += linked  # page.js asks for the state a link opens, then its neighbours
        for start in starts:
            answer = _answer(start, lang)
            if answer["ok"]:
                out[figure] += registry.neighbours(figure, answer["data"])
    for of, table in exports().items():  # "Numbers as CSV" for what a page first shows
        source = registry.embed(of).state  # the state whose URL it reads
        params = [{}] + (links.get(source, []) if source else [])
        out[table] += [{"figure": "export", "of": of, "url": p} for p in params]
    return {name: list({neighbours.key(r): r for r in reqs}.values()) for name, reqs in out.items()}


def _cache_file(wheel: Path) -> Path:
    """Where the answers from this wheel and runtime are kept: {request text: answer text}."""
    h = hashlib.sha256(runtime.PYODIDE_VERSION.encode() + b"\0" + wheel.read_bytes() + b"\0"
                       + trained_layer.WEIGHTS_SHA256.encode())  # the data files Python may read
    return runtime.cache_root() / "answers" / f"{h.hexdigest()[:24]}.json"


def _read(cache: Path) -> dict[str, str]:
    try:
        return json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _in_pyodide(texts: list[str], wheel: Path, log) -> list[str] | None:
    """Answer every request in Pyodide under Node; None when Node or the runtime is missing.
    Each answer is kept, by request, for later builds from the same wheel: a build that adds a
    link computes only the requests that are new."""
    node = shutil.which("node")
    folder = runtime.cache_root() / "runtime" / runtime.PYODIDE_VERSION
    if not node or not (folder / "pyodide.mjs").is_file():
        return None
    cache = _cache_file(wheel)
    known = _read(cache)
    new = [t for t in texts if t not in known]
    if new:
        log(f"computing {len(new)} precomputed answers in Pyodide under Node…")
        files = json.dumps({trained_layer.weights_name(): str(trained_layer.WEIGHTS)})
        proc = subprocess.run([node, str(SCRIPT), str(folder), str(wheel), files], input=json.dumps(new),
                              capture_output=True, text=True, timeout=NODE_TIMEOUT)
        if proc.returncode != 0:
            log(f"note: Pyodide under Node failed ({proc.stderr.strip()[-300:]})")
            return None
        computed = dict(zip(new, json.loads(proc.stdout)["answers"]))
        waiting = [t for t, a in computed.items() if a.startswith(bridge.NEEDS)]
        if waiting:  # a table must hold answers, never a request for a file
            log(f"note: Pyodide under Node was not given a data file for {waiting[0][:80]}")
            return None
        known = {**_read(cache), **computed}  # what a parallel build kept meanwhile, too
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")  # parallel test workers may build at once:
        tmp.write_text(json.dumps(known), encoding="utf-8")  # a reader never sees half a file
        os.replace(tmp, cache)
    return [known[t] for t in texts]


def addresses(url: dict, default: dict) -> list[dict]:
    """Every address that opens the state at ``url`` (its canonical parameters, as the bridge
    writes them): the parameters whose value is the default state's may be left out, as a
    teacher typing a link does. (The bridge answers each of them: a form it reads otherwise
    simply gets an answer of its own.)

    >>> addresses({"head": "coreference", "query": "3", "t": "1"},
    ...           {"head": "coreference", "query": "6", "t": "1"})  # doctest: +NORMALIZE_WHITESPACE
    [{'head': 'coreference', 'query': '3', 't': '1'}, {'query': '3', 't': '1'},
     {'head': 'coreference', 'query': '3'}, {'query': '3'}]
    """
    optional = [name for name, value in url.items() if default.get(name) == value]
    forms = []
    for dropped in itertools.chain.from_iterable(
            itertools.combinations(optional, k) for k in range(len(optional) + 1)):
        form = {name: value for name, value in url.items() if name not in dropped}
        if form:  # an address with no state is the page itself
            forms.append(form)
    return forms


def follow_ups(wanted: dict[str, list[dict]], by_text: dict[str, str],
               lang: str = SOURCE) -> dict[str, list[dict]]:
    """The requests a page sends once it has drawn one of these answers, per table: the
    bench's "Predict, then reveal" questions for that state (quiz.js), and the addresses that
    open it (a link a click wrote, read back by Back, or one a teacher typed shorter)."""
    defaults = {figure: _answer({"figure": figure}, lang).get("url") or {} for figure in widgets().values()}
    out: dict[str, list[dict]] = {name: [] for name in wanted}
    for name, reqs in wanted.items():
        for r in reqs:
            if r["figure"] not in defaults:  # an export's numbers: drawn nowhere
                continue
            answer = json.loads(by_text[json.dumps(r, ensure_ascii=False)])
            if not answer["ok"]:
                continue
            if r["figure"] == "bench":  # quiz.js: the state without the trained head beside it
                state = {k: v for k, v in answer["data"]["state"].items() if k != "trained"}
                out[name].append({"figure": "quiz", **state})
            if answer.get("url"):
                out[name] += [{"figure": r["figure"], "url": form}
                              for form in addresses(answer["url"], defaults[r["figure"]])]
    return {name: list({neighbours.key(r): r for r in reqs}.values()) for name, reqs in out.items()}


def in_language(text: str, lang: str) -> str:
    """A request's text as sent in a language: with its "lang" (the bridge answers a page's
    worker in the page's language without one: bridge.speak; the same answer). English's own.

    >>> in_language('{"figure": "lab"}', "zh"), in_language('{"figure": "lab"}', "en")
    ('{"figure": "lab", "lang": "zh"}', '{"figure": "lab"}')
    """
    return text if lang == SOURCE else json.dumps({**json.loads(text), "lang": lang}, ensure_ascii=False)


def _answered(texts: list[str], wheel: Path, log, lang: str = SOURCE) -> tuple[list[str], str]:
    """The bridge's answers to these requests in a language, in Pyodide under Node when it can
    (else CPython, said in the log); and which runtime gave them."""
    texts = [in_language(t, lang) for t in texts]
    answers = _in_pyodide(texts, wheel, log)
    if answers is not None:
        return answers, f"pyodide {runtime.PYODIDE_VERSION}"
    log("note: Node.js or the Pyodide runtime is missing: answer tables computed in CPython")
    return [bridge.handle_json(t) for t in texts], f"cpython {sys.version.split()[0]}"


def _texts(wanted: dict[str, list[dict]]) -> list[str]:
    return sorted({json.dumps(r, ensure_ascii=False) for reqs in wanted.values() for r in reqs})


def _answer_all(wanted: dict[str, list[dict]], by_text: dict[str, str], wheel: Path, log, lang: str) -> str:
    """Answer, into by_text, every request of wanted and what a page sends once it has drawn
    each answer (follow_ups), in two batches; return the follow-ups and the runtime's name."""
    texts = [t for t in _texts(wanted) if t not in by_text]
    answers, generator = _answered(texts, wheel, log, lang) if texts else ([], "")
    by_text.update(zip(texts, answers))
    more = follow_ups(wanted, by_text, lang)
    later = [t for t in _texts(more) if t not in by_text]
    if later:
        by_text.update(zip(later, _answered(later, wheel, log, lang)[0]))
    return more, generator


def _table(name: str, reqs: list[dict], by_text: dict[str, str], generator: str, wheel: Path,
           leave_out: set[str] = frozenset()) -> tuple[str, dict]:
    """A table's JSON text (each answer once) and its keys; keys in leave_out are left out."""
    unique: dict[str, int] = {}
    keys = {}
    for r in reqs:
        key = neighbours.key(r)
        if key not in leave_out and key not in keys:
            keys[key] = unique.setdefault(by_text[json.dumps(r, ensure_ascii=False)], len(unique))
    table = {"schema": 1, "figure": name, "generator": {"runtime": generator, "wheel": wheel.name},
             "answers": [json.loads(a) for a in unique], "keys": keys}
    return json.dumps(table, ensure_ascii=False, separators=(",", ":"), allow_nan=False), keys


def tables(links: dict[str, list[dict]], wheel: Path, log=print, lang: str = SOURCE,
           folder: str = "") -> dict[str, str]:
    """Return {path below the site root: JSON text} of every answer table, its answers in a
    language (an edition's, below a folder of its own: static/answers/zh/…).

    Computed (and cached) in batches: the requests one click from each figure's first states,
    then what a page sends once it has drawn each of those answers; and, for the figures in
    NEAR, the same for every state one click from those (a link's own neighbours: NEAR_DIR).
    The tables are a function of the site's links, its wheel, the runtime and this module: the
    whole set is kept too, so a build with none of them changed reads them instead of decoding
    1,000 answers."""
    h = hashlib.sha256(b"tables\0" + runtime.PYODIDE_VERSION.encode() + b"\0" + wheel.read_bytes())
    h.update(Path(__file__).read_bytes())
    h.update(json.dumps(links, sort_keys=True).encode() + f"\0{lang}\0{folder}".encode())
    kept = runtime.cache_root() / "answers" / f"tables-{h.hexdigest()[:24]}.json"
    if kept.is_file():
        return json.loads(kept.read_text(encoding="utf-8"))
    out = _tables(links, wheel, log, lang, folder)
    if all('"runtime":"pyodide' in text for path, text in out.items() if path.startswith(f"static/{DIR}")):
        kept.parent.mkdir(parents=True, exist_ok=True)
        tmp = kept.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, kept)  # parallel test workers may build at once
    return out


def _tables(links: dict[str, list[dict]], wheel: Path, log, lang: str, folder: str) -> dict[str, str]:
    wanted = requests(links, lang)
    by_text: dict[str, str] = {}
    more, generator = _answer_all(wanted, by_text, wheel, log, lang)
    out, held = {}, {}
    for name, reqs in wanted.items():
        out[f"static/{DIR}{folder}{name}.json"], held[name] = _table(name, [*reqs, *more[name]], by_text,
                                                                     generator, wheel)
    out.update(_near(wanted, held, by_text, generator, wheel, log, lang, folder))
    return out


# Figures whose states one click away bring their own neighbours along, fetched once a link
# opens one of them (answers.js): a teacher's link to the sink head answers a row clicked next
# at once, before Python. Written as one small table per state (below static/answers/near/),
# found through a map from the state's address to its table (static/near/<figure>.json, which
# the build's hashing pass reads, so its file names follow the tables' content). A service
# worker does not keep them ahead: a reader fetches only those of the links they open.
NEAR = ("bench",)
NEAR_DIR = "near/"  # below static/answers/ (the tables) and static/ (the maps)


def _near(wanted, held, by_text, generator, wheel, log, lang, folder) -> dict[str, str]:
    """The near tables of the figures in NEAR, and each figure's map to them."""
    out = {}
    for name in NEAR:
        starts = []  # (the address a link gives the state, the requests one click from it)
        for r in wanted[name]:
            answer = json.loads(by_text[json.dumps(r, ensure_ascii=False)])
            if r["figure"] == name and answer["ok"] and answer.get("url") is not None:
                starts.append((neighbours.key({"figure": name, "url": answer["url"]}),
                               registry.neighbours(name, answer["data"])))
        near = {f"{name}:{i}": reqs for i, (_, reqs) in enumerate(starts)}
        more, _ = _answer_all(near, by_text, wheel, log, lang)
        addresses_map = {}
        for i, (address, reqs) in enumerate(starts):
            if address in addresses_map:
                continue
            text, keys = _table(name, [*reqs, *more[f"{name}:{i}"]], by_text, generator, wheel,
                                leave_out=set(held[name]))
            if keys:
                out[f"static/{DIR}{folder}{NEAR_DIR}{name}-{i}.json"] = text
                # from the map's place (static/near/<folder>)
                addresses_map[address] = "../" * (1 + folder.count("/")) + f"{DIR}{folder}{NEAR_DIR}{name}-{i}.json"
        # [[table, address], ...], spaced: the hashing pass finds each file name as a string
        # of its own (written tight, '"],["' read as one, and hid the next name)
        out[f"static/{NEAR_DIR}{folder}{name}.json"] = json.dumps(
            [[table, address] for address, table in addresses_map.items()], ensure_ascii=False)
    return out


def near_for_page(body: str, folder: str = "") -> list[str]:
    """The maps to the near tables of a page's figures, as static asset names.

    >>> near_for_page('<div data-widget="fig-006">'), near_for_page('<div data-widget="lab">')
    (['near/bench.json'], [])
    """
    widget = widgets()
    shown = {widget[w] for w in re.findall(r'data-widget="([^"]+)"', body) if w in widget}
    return [f"{NEAR_DIR}{folder}{name}.json" for name in NEAR if name in shown]


def positions_on_page(body: str) -> list[str]:
    """The URL parameters that name positions in the sentence of a live figure on a page
    (registry's State.positions): the language switch drops them with the sentence left out.

    >>> positions_on_page('<figure data-widget="fig-004">'), positions_on_page('<p>')
    (['query', 'shut'], [])
    """
    shown = set(re.findall(r'data-widget="([^"]+)"', body))
    return sorted({p for f in registry.FIGURES if f.widget in shown and f.state
                   for p in registry.STATES[f.state].positions})


def for_page(body: str, folder: str = "") -> list[str]:
    """Return the answer tables a page's figures use, as static asset names.

    >>> for_page('<figure data-embed="fig-005" data-export data-widget="fig-005">')
    ['answers/bench.json']
    """
    widget, export = widgets(), exports()
    names = {widget[w] for w in re.findall(r'data-widget="([^"]+)"', body) if w in widget}
    names |= {export[e] for e in re.findall(r'data-embed="([^"]+)"[^>]*data-export', body)
              if e in export}
    return [f"{DIR}{folder}{name}.json" for name in sorted(names)]
