"""Write precompressed copies (.gz, and .br for large files) beside the site's text and wasm files.

`build.py serve` and nginx's `gzip_static` send them to browsers that accept the encoding: the
Python runtime's 10 MB of WebAssembly crosses the network as about 3 MB (gzip) or 2.3 MB
(brotli). Files that are already compressed (.whl, .zip) and tiny ones are left alone.

gzip runs at level 9 with mtime 0, so the same input always gives the same bytes. Large files
(the runtime, in practice) are compressed once per content and kept in the cache
(<cache>/compressed/<sha256>.gz|.br): brotli at quality 11 takes about 30 s on the wasm, and
every later build only links the cached copies.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .runtime import cache_root

try:  # the site extra installs it; without it the build writes .gz files only
    import brotli
except ImportError:  # pragma: no cover - depends on the environment
    brotli = None

SUFFIXES = (".wasm", ".js", ".mjs", ".css", ".html", ".json", ".svg", ".txt", ".npz")
MIN_BYTES = 1024  # smaller files gain a few bytes at most
CACHED_BYTES = 100_000  # at least this large: compressed once per content, kept in the cache
ENCODINGS = {"br": ".br", "gzip": ".gz"}  # Content-Encoding: file suffix, in order of preference


def gzip_bytes(data: bytes) -> bytes:
    """Compress data with gzip at level 9, deterministically (no name, mtime 0).

    >>> gzip_bytes(b"attention " * 100) == gzip_bytes(b"attention " * 100)
    True
    >>> gzip.decompress(gzip_bytes(b"abc"))
    b'abc'
    """
    return gzip.compress(data, compresslevel=9, mtime=0)


def brotli_bytes(data: bytes) -> bytes | None:
    """Compress data with brotli at quality 11, or return None when brotli is not installed."""
    return brotli.compress(data, quality=11) if brotli else None


def wanted(path: Path) -> bool:
    """Say whether a file gets precompressed copies: a text or wasm file of at least 1 KB."""
    return path.name.endswith(SUFFIXES) and path.stat().st_size >= MIN_BYTES


def _write(path: Path, data: bytes) -> None:
    """Write data to path through a temporary file, so no reader sees half of it."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def _cached(data: bytes, sha256: str | None, suffix: str, make, cache: Path) -> Path | None:
    """Return the cached compressed copy of data, making it first if needed."""
    target = cache / f"{sha256 or hashlib.sha256(data).hexdigest()}{suffix}"
    if not target.is_file():
        packed = make(data)
        if packed is None:
            return None
        cache.mkdir(parents=True, exist_ok=True)
        _write(target, packed)
    return target


def _place(src: Path, dest: Path) -> None:
    """Hard-link a cached copy into the site (copy where links cannot be made)."""
    try:
        os.link(src, dest)
    except OSError:
        shutil.copyfile(src, dest)


def compress_file(path: Path, cache: Path, sha256: str | None = None) -> list[Path]:
    """Write path.gz (and path.br for a large file) when it saves space; return what it wrote.

    sha256, when the caller knows it (the runtime's pins), saves reading and hashing a large
    file again when its compressed copies are cached already.
    """
    size, written = path.stat().st_size, []
    makers = [(".gz", gzip_bytes)] + ([(".br", brotli_bytes)] if size >= CACHED_BYTES else [])
    data = None
    for suffix, make in makers:
        dest = Path(f"{path}{suffix}")
        if dest.exists():  # kept from the previous build with the file itself
            continue
        if size >= CACHED_BYTES:
            src = cache / f"{sha256}{suffix}" if sha256 else None
            if src is None or not src.is_file():
                data = path.read_bytes() if data is None else data
                src = _cached(data, sha256, suffix, make, cache)
            if src is not None and src.stat().st_size < 0.95 * size:
                _place(src, dest)
                written.append(dest)
        else:
            data = path.read_bytes() if data is None else data
            packed = make(data)
            if packed is not None and len(packed) < 0.95 * size:
                dest.write_bytes(packed)
                written.append(dest)
    return written


def compress_site(site: Path, cache: Path | None = None,
                  known: dict[Path, str] | None = None) -> list[Path]:
    """Write the precompressed copies of every eligible file in site; return them.

    known maps files whose sha256 the caller has verified already to that digest.
    """
    cache, known = cache or cache_root() / "compressed", known or {}
    files = [p for p in sorted(site.rglob("*")) if p.is_file() and wanted(p)]
    files.sort(key=lambda p: -p.stat().st_size)  # the slowest first, so the pool stays busy
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # zlib, brotli drop the GIL
        done = pool.map(lambda p: compress_file(p, cache, known.get(p)), files)
        return [path for written in done for path in written]


def variant(path: Path, accept_encoding: str) -> tuple[Path, str | None]:
    """Return the file to send for path and its Content-Encoding, given the Accept-Encoding.

    An encoding is acceptable when listed without q=0 (or "*" is); brotli is preferred.
    """
    accepted = {}
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if name.strip():
            accepted[name.strip().lower()] = q
    for encoding, suffix in ENCODINGS.items():
        q = accepted.get(encoding, accepted.get("*", 0.0))
        if q > 0 and Path(f"{path}{suffix}").is_file():
            return Path(f"{path}{suffix}"), encoding
    return path, None
