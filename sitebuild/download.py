"""What a reader's first live page downloads to start Python, measured from the shipped files.

The page quotes this size before a phone on a slow or metered connection starts the download,
and shows the download's progress against it. Measure what is sent: if the files are ever
served compressed, this is the place to count the compressed bytes instead.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["runtime_bytes"]


def runtime_bytes(files: tuple[Path, ...], wheel: Path) -> int:
    """Return the bytes of the runtime files and the package's wheel (0 if none are shipped).

    >>> runtime_bytes((), Path(__file__))
    0
    """
    if not files:
        return 0  # loaded from a CDN: its size is not this build's to measure
    return sum(path.stat().st_size for path in (*files, wheel))
