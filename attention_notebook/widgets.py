"""The notebook's live figures: anywidget widgets whose traits are a figure's state.

The kernel computes every answer with ``attention.protocol.bridge``, from the same JSON requests the
site's Web Worker answers; the widget's module (``static/widget.js``, the site's render
modules bundled) draws them into the site's own markup. A reader's click or typed sentence is
a request from the output cell; a trait set from Python is a request from the kernel. Either
way the traits end as the state the answer computed, and every view of the widget redraws.

A widget speaks one of the catalog's languages (``lang="zh"``; English by default), set once
for every figure here: the kernel answers in it, its markup is in it (with its ``lang`` and
``dir``), and its module is the bundle that carries that language's messages
(``static/widget-<lang>.js``).
"""

from __future__ import annotations

import json
import uuid
import weakref
from pathlib import Path

import anywidget
import traitlets

from attention import catalog
from attention.protocol import bridge
from attention.protocol.registry import FIGURES
from . import markup

__all__ = ["Bench"]

STATIC = Path(__file__).with_name("static")
# Widgets whose state a reader changed in the output since their static HTML was written: it is
# rewritten after the next cell runs, not at once, which would redraw the figure under the
# reader's hand (a display update replaces the output's view).
_CHANGED: weakref.WeakSet = weakref.WeakSet()


def _refresh_changed(*_result) -> None:
    """After a cell has run: give the widgets the reader changed the static HTML of their state."""
    for widget in list(_CHANGED):
        _CHANGED.discard(widget)
        widget._refresh_static()


def _after_each_cell() -> None:
    """Refresh changed widgets' static HTML after each cell IPython runs (registered once)."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None and _refresh_changed not in shell.events.callbacks["post_run_cell"]:
        shell.events.register("post_run_cell", _refresh_changed)


def ask(request: dict, lang: str = catalog.SOURCE) -> dict:
    """Answer one request as the browser's worker does: JSON text through the bridge, in
    ``lang`` (the request names it, as a precomputed table's do).

    >>> ask({"figure": "fig-002", "query": "grid"})["data"]["rows"][0]["weight"]["text"]
    '0.401'
    >>> ask({"figure": "bench", "sentence": "the zzz"})["errors"][0]["message"]  # doctest: +ELLIPSIS
    'Not in the lexicon: “zzz”. The bench knows only its 82 words: swap each ...'
    """
    with catalog.speaking(lang):
        return json.loads(bridge.handle_json(json.dumps({**request, "lang": lang})))


def module(lang: str) -> str:
    """The widget's module in a language: the bundle whose messages are that language's
    (sitebuild.notebook_bundle), so its modules' words are too, and two languages are two
    modules, whichever way a host loads them."""
    return (STATIC / f"widget-{lang}.js").read_text(encoding="utf-8")


def messages(answer: dict) -> str:
    """Return an error answer's messages as one text, as the site shows them."""
    return " ".join(e["message"] for e in answer["errors"])


class Figure(anywidget.AnyWidget):
    """One live figure (or group of figures sharing a state); subclasses name the state."""

    STATE = ""  # its live state in attention.protocol.registry.STATES
    EMBEDS: tuple[str, ...] = ()  # the figures it draws, by their ids (attention.protocol.registry)
    TITLE = ""
    FIELDS: tuple[str, ...] = ()  # the traits that are its state

    _css = markup.widget_css()  # its module, _esm, is its language's (module())
    _html = traitlets.Unicode().tag(sync=True)  # the markup, rendered once per widget
    _answer = traitlets.Dict().tag(sync=True)  # {"asked": request id | None, "answer", "n"}

    def __init__(self, lang: str = catalog.SOURCE, **state):
        self._lang = markup.language(lang)  # an unknown language: a ValueError naming the catalog's
        self._quiet = True  # the traits are being set to an answer's state
        super().__init__(_esm=module(lang), **state)
        answer = ask(self.request(), lang)
        if not answer["ok"]:
            raise ValueError(messages(answer))
        self._quiet = False
        self._display_id = None
        self._n = 0
        self._publish(answer)
        self._html = markup.wrapped(markup.markup(self.EMBEDS, answer["url"], lang), lang)
        self.on_msg(self._on_message)

    @property
    def lang(self) -> str:
        """The language it speaks (one of the catalog's), set when it is made."""
        return self._lang

    def request(self, changed: str = "") -> dict:
        """Return the request for the state the traits hold (changed: the trait just set)."""
        raise NotImplementedError

    def read(self, data: dict) -> dict:
        """Return the trait values of an answer's data."""
        raise NotImplementedError

    def _publish(self, answer: dict, asked: str | None = None) -> None:
        """Set the traits to an answer's state and send the answer to every view."""
        self._quiet = True
        try:
            with self.hold_trait_notifications():
                for name, value in self.read(answer["data"]).items():
                    setattr(self, name, value)
        finally:
            self._quiet = False
        self._n += 1
        self._answer = {"asked": asked, "answer": answer, "n": self._n}
        self._url = answer["url"]

    @traitlets.observe(traitlets.All)
    def _state_set(self, change) -> None:
        """A state trait set from Python: compute it, or restore it and raise the site's message."""
        if change["name"] not in self.FIELDS or self._quiet:
            return
        answer = ask(self.request(change["name"]), self._lang)
        if not answer["ok"]:
            self._quiet = True
            try:
                setattr(self, change["name"], change["old"])
            finally:
                self._quiet = False
            raise ValueError(messages(answer))
        self._publish(answer)
        self._refresh_static()

    def _on_message(self, _widget, content, _buffers) -> None:
        """A view's request: answer it; its own state's good answers become the traits."""
        if not isinstance(content, dict) or content.get("type") != "ask":
            return
        request = {k: v for k, v in dict(content.get("request") or {}).items() if k != "have"}
        answer = ask(request, self._lang)  # without "have", every answer carries the whole matrix
        if answer["ok"] and answer.get("figure") == self.STATE:
            self._publish(answer, content.get("id"))
            if self._display_id:
                _CHANGED.add(self)
        else:
            self.send({"type": "answer", "id": content.get("id"), "answer": answer})

    def __repr__(self) -> str:
        """The figure and its state, as a notebook without HTML shows it.

        >>> Bench(head="sink", T=0.5)  # doctest: +ELLIPSIS
        Bench(sentence='the engineer ... left', head='sink', query=6, T=0.5, shut=[], without=[])
        """
        state = [f"{name}={getattr(self, name)!r}" for name in self.FIELDS]
        if self._lang != catalog.SOURCE:
            state.insert(0, f"lang={self._lang!r}")
        return f"{type(self).__name__}({', '.join(state)})"

    def static_html(self) -> str:
        """Return the figures' static HTML for the state the widget holds."""
        return markup.static_html(self.EMBEDS, self._url, self.TITLE, self._lang)

    def _repr_mimebundle_(self, **kwargs):
        """The widget's view, with the static HTML of its state beside it for readers
        without a kernel (GitHub, nbconvert, Jupyter Book, a notebook opened later)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data, meta = bundle if isinstance(bundle, tuple) else (bundle, {})
        data = {**(data or {}), "text/html": self.static_html()}
        return (data, meta) if meta else data

    def _ipython_display_(self) -> None:
        """Display with an id, so a state set from Python later updates the static HTML."""
        from IPython.display import display

        self._display_id = self._display_id or f"attention-bench-{uuid.uuid4().hex}"
        _after_each_cell()
        display(self._repr_mimebundle_(), raw=True, display_id=self._display_id)

    def _refresh_static(self) -> None:
        """Give every output of this widget the static HTML of its new state."""
        _CHANGED.discard(self)
        if self._display_id:
            from IPython.display import update_display

            update_display(self._repr_mimebundle_(), raw=True, display_id=self._display_id)


# the bench's figures that a module of their own draws (not the trained model's comparison,
# which reads the site's data files), in the chapter's order
_BENCH = [f for f in FIGURES if f.state == "bench" and f.widget == f.id]


class Bench(Figure):
    """The bench: its figures that a module of their own draws (the drawing, with the what-if
    toggles, the working table and the matrix), one state. A new sentence resets the query
    and the stopcocks, as on the site; query None is its first pronoun, or its last word."""

    STATE = "bench"
    EMBEDS = tuple(f.id for f in _BENCH)
    TITLE = f"the bench ({', '.join(f.number for f in _BENCH)})"
    FIELDS = ("sentence", "head", "query", "T", "shut", "without")

    sentence = traitlets.Unicode("the engineer fixed the bridge before she left").tag(sync=True)
    head = traitlets.Unicode("coreference").tag(sync=True)
    query = traitlets.Int(None, allow_none=True).tag(sync=True)
    T = traitlets.Float(1.0).tag(sync=True)
    shut = traitlets.List(traitlets.Int()).tag(sync=True)
    without = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def request(self, changed: str = "") -> dict:
        fresh = changed == "sentence"  # a new sentence starts from its own query, all open
        return {"figure": "bench", "sentence": self.sentence, "head": self.head,
                "query": None if fresh else self.query, "temperature": f"{self.T:g}",
                "shut": [] if fresh else list(self.shut), "without": list(self.without)}

    def read(self, data: dict) -> dict:
        state = data["state"]
        return {"sentence": state["sentence"], "head": state["head"], "query": state["query"],
                "T": float(state["temperature"]), "shut": list(state["shut"]),
                "without": list(data["whatif"]["without"])}
