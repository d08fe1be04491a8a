"""FIG-009 in a notebook: a sentence through a whole layer; its traits are the sentence, the word
followed, T, the parts switched off and a silent head.

>>> Fig009(focus=1, without=["mlp"])
Fig009(sentence='the engineer fixed the bridge before she left', focus=1, temperature='1', without=['mlp'], silent='')
"""

from __future__ import annotations

import traitlets

from .widgets import Figure

__all__ = ["Fig009"]


class Fig009(Figure):
    """FIG-009, a whole layer: type a sentence, follow a word, switch parts off."""

    STATE = "layer"
    EMBEDS = ("fig-009",)
    TITLE = "FIG-009"
    FIELDS = ("sentence", "focus", "temperature", "without", "silent")

    sentence = traitlets.Unicode("the engineer fixed the bridge before she left").tag(sync=True)
    focus = traitlets.Int(6).tag(sync=True)
    temperature = traitlets.Unicode("1").tag(sync=True)
    without = traitlets.List(traitlets.Unicode(), default_value=[]).tag(sync=True)
    silent = traitlets.Unicode("").tag(sync=True)

    def request(self, changed: str = "") -> dict:
        # a new sentence follows its own default word, as on the page
        return {"figure": "layer", "sentence": self.sentence,
                "focus": None if changed == "sentence" else self.focus,
                "temperature": self.temperature, "without": list(self.without),
                "silent": self.silent or None}

    def read(self, data: dict) -> dict:
        s = data["state"]
        return {"sentence": s["sentence"], "focus": s["focus"], "temperature": s["temperature"],
                "without": list(s["without"]), "silent": s["silent"] or ""}
