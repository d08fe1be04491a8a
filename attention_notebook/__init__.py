"""Attention Bench's live figures in a notebook (from a clone: ``npm ci``, then
``pip install ".[notebook]"``; the README's "In a notebook").

>>> from attention_notebook import Bench, Fig002
>>> Fig002(query="grid").query, Bench(head="previous-token").head
('grid', 'previous-token')
"""

from . import widgets
from .widgets import *  # noqa: F403 (the figures, each a widget class)

__all__ = widgets.__all__
