"""Serve a built site on 127.0.0.1 with the MIME types and cache headers the runtime needs."""

from __future__ import annotations

import functools
import http.server
import sys
from pathlib import Path


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serve files with correct types; cache the versioned runtime and wheel for a year."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",  # any other type makes loadPyodide() hang
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".whl": "application/zip",
        ".json": "application/json",
        ".svg": "image/svg+xml",
    }

    def send_head(self):
        # A rebuild within the same second keeps a file's Last-Modified second, so a 304 would
        # serve the old page: only the content-addressed paths may be revalidated.
        if not self.path.startswith(("/runtime/", "/py/")):
            del self.headers["If-Modified-Since"]
        return super().send_head()

    def end_headers(self):
        if self.path.startswith(("/runtime/", "/py/")):  # versioned or content-hashed paths
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        else:
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_error(self, code, message=None, explain=None):
        # Hook for issue 12 (M5): a missing path gets the site's own 404 page, not the stdlib's.
        page = Path(self.directory) / "404.html"
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


class SiteServer(http.server.ThreadingHTTPServer):
    """A threaded server that treats a reader closing the connection early as normal."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


def make_server(root: Path, port: int = 8000, quiet: bool = False) -> http.server.HTTPServer:
    """Return a threaded HTTP server for root bound to 127.0.0.1 (port 0 picks a free one)."""
    handler = functools.partial(SiteHandler, directory=str(root))
    server = SiteServer(("127.0.0.1", port), handler)
    server.quiet = quiet
    return server
