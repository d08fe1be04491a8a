"""Attention Bench's live figures in a notebook (from a clone: ``npm ci``, then
``pip install ".[notebook]"``; the README's "In a notebook").

``Bench`` holds the bench's figures, one state (``widgets.py``); a figure with a state of its
own has its class in a module named after it (``fig_NNN.py``), found here.

>>> from attention_notebook import Bench, Fig002
>>> Fig002(query="grid").query, Bench(head="previous-token").head
('grid', 'previous-token')
>>> __all__
['Bench', 'Fig002', 'Fig009']
"""

import importlib
import pkgutil
import re

from .widgets import Bench

_FIGURES = [importlib.import_module(f"{__name__}.{m.name}") for m in sorted(
    pkgutil.iter_modules(__path__), key=lambda m: m.name) if re.fullmatch(r"fig_\d{3}", m.name)]
globals().update({name: getattr(m, name) for m in _FIGURES for name in m.__all__})

__all__ = ["Bench", *(name for m in _FIGURES for name in m.__all__)]
