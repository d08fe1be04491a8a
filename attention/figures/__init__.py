"""Every figure of Attention Bench, one module each (``fig_NNN``), each with its
record (``FIGURE``) and what is about that figure alone: its data builder, its download, and,
for a figure whose state a reader changes, that state (``STATE``: its answer, its URL
parameters, its neighbours). The bench's figures share one state (``bench_state``).

What lists figures is derived here, never typed: ``FIGURES``, every figure module's record in
the order of their numbers, and ``STATES``, every state a module declares. A new figure is a
module here (and its template, ``templates/figures/fig-NNN.html``).

>>> [f.number for f in FIGURES if f.state == "bench"]
['FIG-004', 'FIG-005', 'FIG-006', 'FIG-008']
>>> list(STATES)
['fig-002', 'lab', 'bench', 'layer']
"""

from __future__ import annotations

import importlib
import pkgutil
import re

from ..protocol.records import Figure, State

__all__ = ["FIGURES", "STATES"]

_MODULES = [importlib.import_module(f"{__name__}.{m.name}")
            for m in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name)]

FIGURES: tuple[Figure, ...] = tuple(m.FIGURE for m in _MODULES
                                    if re.fullmatch(r"fig_\d{3}", m.__name__.rsplit(".", 1)[1]))
_DECLARED = {m.STATE.name: m.STATE for m in _MODULES if hasattr(m, "STATE")}
# in the order of the first figure that shows each
STATES: dict[str, State] = {f.state: _DECLARED[f.state] for f in FIGURES if f.state}
