"""Attention Bench's core: every number the explainer shows is computed here.

Pure NumPy; runs unchanged in CPython and in Pyodide.

>>> import attention
>>> attention.softmax([[0.0, 0.0, 0.0]]).round(3).tolist()
[[0.333, 0.333, 0.333]]
"""

from .ops import Trace, attend, mix, project, scale, scores, softmax

__all__ = ["Trace", "attend", "mix", "project", "scale", "scores", "softmax"]
__version__ = "0.1.0"
