"""Serve a built site on 127.0.0.1 as a static host would: its _headers, precompressed files.

Every response carries the headers the site's `_headers` file gives its path (the same file
Netlify and Cloudflare Pages read; see sitebuild/headers.py), the Content-Type from the same
rules, and a strong ETag. A file with a precompressed copy beside it (`.br`, `.gz`) is sent
encoded when the request's Accept-Encoding allows it, with `Vary: Accept-Encoding` either way.
A single byte range is answered with 206 (on the identity file); HEAD sends the headers only.
A missing file gets the site's 404.html when it has one.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import os
import re
import sys
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

from . import compress, headers

CHUNK = 1 << 16
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


class _ETags:
    """Strong ETags by content, computed once per file version (path, inode, size, mtime)."""

    def __init__(self):
        self._known: dict[tuple, str] = {}
        self._lock = threading.Lock()

    def __call__(self, path: Path, st: os.stat_result) -> str:
        key = (str(path), st.st_ino, st.st_size, st.st_mtime_ns)
        with self._lock:
            if key in self._known:
                return self._known[key]
        h = hashlib.sha256()
        with open(path, "rb") as f:
            while block := f.read(1 << 20):
                h.update(block)
        tag = f'"{h.hexdigest()[:20]}"'
        with self._lock:
            self._known[key] = tag
        return tag


class SiteHandler(http.server.BaseHTTPRequestHandler):
    """Answer GET and HEAD for files below the site root."""

    server_version = "AttentionBench"
    protocol_version = "HTTP/1.1"

    def __init__(self, *args, directory: str, **kwargs):
        self.root = Path(directory).resolve()
        super().__init__(*args, **kwargs)

    # ---- finding the file ----
    def _file(self, url_path: str) -> Path | None:
        """Return the file a request path names, or None (nothing outside the root, no dotfiles
        and no host files such as _headers)."""
        parts = [p for p in url_path.split("/") if p]
        if any(p in ("..", ".") or p.startswith(".") or "\\" in p or "\0" in p for p in parts):
            return None
        if parts and parts[0].startswith("_"):
            return None
        path = self.root.joinpath(*parts)
        if path.is_dir():
            if not url_path.endswith("/"):
                return path  # redirected by _answer
            path = path / "index.html"
        return path if path.is_file() else None

    def do_GET(self):
        self._answer(body=True)

    def do_HEAD(self):
        self._answer(body=False)

    def _answer(self, body: bool) -> None:
        url_path = unquote(urlsplit(self.path).path) or "/"
        path = self._file(url_path)
        if path is not None and path.is_dir():
            self.send_response(301)
            self.send_header("Location", url_path + "/" + (f"?{urlsplit(self.path).query}"
                                                           if urlsplit(self.path).query else ""))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        status = 200
        if path is None:
            status, path, url_path = 404, self.root / "404.html", "/404.html"
            if not path.is_file():
                self.send_error(404, "File not found")
                return
        self._send_file(path, url_path, status, body)

    # ---- sending it ----
    def _send_file(self, path: Path, url_path: str, status: int, body: bool) -> None:
        has_variants = any(Path(f"{path}{s}").is_file() for s in compress.ENCODINGS.values())
        ranged = self.headers.get("Range") if status == 200 else None
        send, encoding = path, None
        if not ranged and self.server.encodings:  # a range is of the identity file
            send, encoding = compress.variant(path, self.headers.get("Accept-Encoding", ""))
        try:
            f = open(send, "rb")  # noqa: SIM115 (a with-block follows: only the open may fail here)
        except OSError:
            self.send_error(404, "File not found")
            return
        with f:
            st = os.fstat(f.fileno())
            etag = self.server.etags(send, st)
            size, start, end = st.st_size, 0, st.st_size - 1
            if status == 200 and etag in _etag_list(self.headers.get("If-None-Match", "")):
                status = 304
            elif ranged:
                span = _byte_range(ranged, size)
                if span is None:
                    status = 200  # not one satisfiable-or-not byte range: send it all
                elif span == ():
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{size}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                else:
                    status, (start, end) = 206, span
            self.send_response(status)
            for name, value in self.server.headers_for(url_path).items():
                self.send_header(name, value)
            if encoding:
                self.send_header("Content-Encoding", encoding)
            if has_variants:
                self.send_header("Vary", "Accept-Encoding")
            self.send_header("ETag", etag)
            self.send_header("Accept-Ranges", "bytes")
            if status == 304:
                self.send_header("Content-Length", "0")  # keeps the connection usable
                self.end_headers()
                return
            if status == 206:
                self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
            length = end - start + 1 if size else 0
            self.send_header("Content-Length", str(length))
            self.end_headers()
            if body and length:
                self.write_body(f, start, length)

    def write_body(self, f, start: int, length: int) -> None:
        """Send length bytes of the open file f from start, a block at a time."""
        f.seek(start)
        left = length
        while left > 0 and (block := f.read(min(CHUNK, left))):
            self.wfile.write(block)
            left -= len(block)

    def send_error(self, code, message=None, explain=None):
        # A missing path gets the site's own 404 page, not the stdlib's.
        page = self.root / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return None

    def log_message(self, format, *args):  # noqa: A002 (the stdlib's name)
        if not getattr(self.server, "quiet", False):
            super().log_message(format, *args)


def _etag_list(value: str) -> set[str]:
    """Return the entity tags of an If-None-Match header ("*" stands for any).

    >>> sorted(_etag_list('"a", W/"b"'))
    ['"a"', '"b"']
    """
    return {t.strip().removeprefix("W/") for t in value.split(",") if t.strip()}


def _byte_range(value: str, size: int):
    """Return (start, end) of a single byte range, () if it is unsatisfiable, None if unusable.

    >>> _byte_range("bytes=0-9", 100), _byte_range("bytes=-10", 100), _byte_range("bytes=90-", 100)
    ((0, 9), (90, 99), (90, 99))
    >>> _byte_range("bytes=200-", 100), _byte_range("bytes=0-1,5-6", 100)
    ((), None)
    """
    m = _RANGE.match(value.strip())
    if not m or m.group(1) == m.group(2) == "":
        return None
    if m.group(1) == "":
        length = int(m.group(2))
        return (max(0, size - length), size - 1) if length and size else ()
    start = int(m.group(1))
    end = min(int(m.group(2)), size - 1) if m.group(2) else size - 1
    if start >= size or end < start:
        return ()
    return start, end


class SiteServer(http.server.ThreadingHTTPServer):
    """A threaded server that treats a reader closing the connection early as normal."""

    daemon_threads = True
    quiet = False
    encodings = True  # send the precompressed copies (False: measure the site without them)

    def __init__(self, address, handler, root: Path):
        super().__init__(address, handler)
        self.root = Path(root)
        self.etags = _ETags()

    def headers_for(self, url_path: str) -> dict[str, str]:
        """Return the headers for a request path: the site's _headers, read on each request (a
        rebuild replaces it), and the Content-Type from the same rules when they set none."""
        found = headers.match(headers.load_rules(self.root), url_path)
        found.setdefault("Content-Type", headers.content_type(url_path))
        return found

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


def make_server(root: Path, port: int = 8000, quiet: bool = False,
                encodings: bool = True) -> SiteServer:
    """Return a threaded HTTP server for root bound to 127.0.0.1 (port 0 picks a free one);
    encodings=False sends every file uncompressed."""
    handler = functools.partial(SiteHandler, directory=str(root))
    server = SiteServer(("127.0.0.1", port), handler, root)
    server.quiet, server.encodings = quiet, encodings
    return server
