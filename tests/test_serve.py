"""`build.py serve`: precompressed files, ranges, HEAD, revalidation and missing files."""

from __future__ import annotations

import brotli
import gzip
import http.client
import threading
from pathlib import Path

import pytest

from sitebuild.serve import make_server

WASM = "/runtime/0.27.7/pyodide.asm.wasm"


@pytest.fixture(scope="module")
def port(built_site):
    srv = make_server(built_site, 0, quiet=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv.server_port
    srv.shutdown()
    srv.server_close()


def fetch(port: int, path: str, method: str = "GET", **request_headers):
    """Return (status, headers with lower-case names, body) for one request."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(method, path, headers={k.replace("_", "-"): v for k, v in request_headers.items()})
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp.status, {k.lower(): v for k, v in resp.getheaders()}, body


def test_wasm_comes_gzip_encoded_when_asked_and_decodes_to_the_same_bytes(built_site, port):
    original = (built_site / WASM.lstrip("/")).read_bytes()
    status, head, body = fetch(port, WASM, Accept_Encoding="gzip")
    assert status == 200 and head["content-encoding"] == "gzip"
    assert head["vary"] == "Accept-Encoding" and head["content-type"] == "application/wasm"
    assert int(head["content-length"]) == len(body) < len(original) * 0.4
    assert gzip.decompress(body) == original


def test_wasm_comes_as_it_is_when_no_encoding_is_asked(built_site, port):
    original = (built_site / WASM.lstrip("/")).read_bytes()
    for asked in ({}, {"Accept_Encoding": "identity"}, {"Accept_Encoding": "gzip;q=0, br;q=0"}):
        status, head, body = fetch(port, WASM, **asked)
        assert status == 200 and "content-encoding" not in head, asked
        assert head["vary"] == "Accept-Encoding"  # a shared cache must not reuse one for the other
        assert body == original and int(head["content-length"]) == len(original)


def test_brotli_is_preferred_when_the_browser_takes_it(built_site, port):
    original = (built_site / WASM.lstrip("/")).read_bytes()
    status, head, body = fetch(port, WASM, Accept_Encoding="gzip, deflate, br")
    assert head["content-encoding"] == "br"
    assert brotli.decompress(body) == original


def test_pages_and_modules_come_compressed_too(built_site, port):
    status, head, body = fetch(port, "/bench/", Accept_Encoding="gzip")
    assert head["content-encoding"] == "gzip"
    assert gzip.decompress(body) == (built_site / "bench" / "index.html").read_bytes()


def test_a_byte_range_is_served_from_the_file_itself(built_site, port):
    original = (built_site / WASM.lstrip("/")).read_bytes()
    status, head, body = fetch(port, WASM, Range="bytes=4-11", Accept_Encoding="gzip")
    assert status == 206 and body == original[4:12] and "content-encoding" not in head
    assert head["content-range"] == f"bytes 4-11/{len(original)}"
    status, head, body = fetch(port, WASM, Range="bytes=-3")
    assert status == 206 and body == original[-3:]
    status, head, _ = fetch(port, WASM, Range=f"bytes={len(original)}-")
    assert status == 416 and head["content-range"] == f"bytes */{len(original)}"


def test_head_sends_the_headers_of_get_without_a_body(port):
    _, got, body = fetch(port, WASM, Accept_Encoding="gzip")
    status, head, empty = fetch(port, WASM, "HEAD", Accept_Encoding="gzip")
    assert status == 200 and empty == b""
    assert {k: v for k, v in head.items() if k != "date"} == {k: v for k, v in got.items() if k != "date"}
    assert int(head["content-length"]) == len(body)


def test_a_page_is_revalidated_by_its_etag(port):
    _, head, _ = fetch(port, "/roles/", Accept_Encoding="gzip")
    status, again, body = fetch(port, "/roles/", Accept_Encoding="gzip", If_None_Match=head["etag"])
    assert status == 304 and body == b"" and again["cache-control"] == "no-cache"
    _, plain, _ = fetch(port, "/roles/")
    assert plain["etag"] != head["etag"]  # each representation has its own tag


def test_missing_hidden_and_host_files_are_not_served(port):
    for path in ("/no-such-page/", "/.attention-bench-assets.json", "/_headers",
                 "/_nginx.conf", "/../etc/passwd", "/static/%2e%2e/sw.js"):
        assert fetch(port, path)[0] == 404, path
    status, head, _ = fetch(port, "/roles?x=1")
    assert status == 301 and head["location"] == "/roles/?x=1"


def test_a_missing_file_gets_the_sites_404_page_when_it_has_one(tmp_path):
    (tmp_path / "404.html").write_text("<p>Not here</p>")
    srv = make_server(tmp_path, 0, quiet=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        status, head, body = fetch(srv.server_port, "/gone/")
        assert status == 404 and body == b"<p>Not here</p>"
        assert head["content-type"] == "text/html; charset=utf-8"
    finally:
        srv.shutdown()
        srv.server_close()


def test_a_folder_without_headers_file_gets_no_policy(tmp_path):
    """A course page served beside the site frames other origins: it sends no site policy."""
    Path(tmp_path / "index.html").write_text("<p>Week 3</p>")
    srv = make_server(tmp_path, 0, quiet=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        status, head, _ = fetch(srv.server_port, "/")
        assert status == 200 and "content-security-policy" not in head
    finally:
        srv.shutdown()
        srv.server_close()


def test_encodings_can_be_switched_off_to_measure_without_them(built_site):
    srv = make_server(built_site, 0, quiet=True, encodings=False)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        _, head, body = fetch(srv.server_port, WASM, Accept_Encoding="gzip, br")
        assert "content-encoding" not in head and len(body) == (built_site / WASM.lstrip("/")).stat().st_size
    finally:
        srv.shutdown()
        srv.server_close()


def test_a_missing_file_of_a_folder_without_a_404_page_gets_a_plain_404(tmp_path):
    """A folder that is not a built site (a test's course page) has no 404.html: the server
    answers 404 all the same. (It raised AttributeError, and the browser saw an empty response.)"""
    (tmp_path / "index.html").write_text("<p>A course page</p>")
    srv = make_server(tmp_path, 0, quiet=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        assert fetch(srv.server_port, "/favicon.ico")[0] == 404
    finally:
        srv.shutdown()
        srv.server_close()
