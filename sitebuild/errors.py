"""The one error the build raises: a message with the file and line at fault."""

from __future__ import annotations

from pathlib import Path


class BuildError(Exception):
    """A problem in the site's sources, reported as ``file:line: message``."""

    def __init__(self, message: str, file: Path | str | None = None, line: int | None = None):
        self.message, self.file, self.line = message, file, line
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.file is None:
            return self.message
        line = f":{self.line}" if self.line else ""
        return f"{_relative(self.file)}{line}: {self.message}"


def _relative(path: Path | str) -> str:
    """Show a path relative to the working directory when it lies inside it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)
