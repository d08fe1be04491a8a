"""Attention Bench's core: every number the explainer shows is computed here.

Pure NumPy; runs unchanged in CPython and in Pyodide.

>>> import attention
>>> attention.softmax([[0.0, 0.0, 0.0]]).round(3).tolist()
[[0.333, 0.333, 0.333]]
"""

__all__ = ["Trace", "attend", "mix", "project", "scale", "scores", "softmax"]
__version__ = "0.1.0"


def __getattr__(name: str):
    """The core's functions (attention.ops), imported when first asked for: a module that needs
    no NumPy (attention.catalog, which setup.py reads) imports without it."""
    if name in __all__:
        from . import ops

        return getattr(ops, name)
    raise AttributeError(f"module 'attention' has no attribute {name!r}")
