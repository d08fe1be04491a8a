"""Attention Bench's live figures in a notebook (from a clone: ``npm ci``, then
``pip install ".[notebook]"``; the README's "In a notebook").

>>> from attention_notebook import Bench, Fig002
>>> Fig002(query="grid").query, Bench(head="previous-token").head
('grid', 'previous-token')
"""

from .widgets import Bench, Fig002

__all__ = ["Bench", "Fig002"]
