"""Precompressed copies: which files get them, that they decode to the file, and the cache."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import brotli
import pytest

from sitebuild import compress


def test_the_built_site_has_copies_of_its_large_text_and_wasm_files(built_site):
    runtime = built_site / "runtime" / "0.27.7"
    for name in ("pyodide.asm.wasm", "pyodide.asm.js", "pyodide-lock.json", "pyodide.mjs"):
        original = (runtime / name).read_bytes()
        assert gzip.decompress((runtime / f"{name}.gz").read_bytes()) == original, name
    wasm = (runtime / "pyodide.asm.wasm").read_bytes()
    assert brotli.decompress((runtime / "pyodide.asm.wasm.br").read_bytes()) == wasm
    for name in ("python_stdlib.zip", "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"):
        assert not (runtime / f"{name}.gz").exists(), "already compressed: left alone"
    assert not list(built_site.glob("py/*/*.whl.gz"))
    for page in ("bench/index.html", "roles/index.html", "sw.js"):
        assert gzip.decompress((built_site / f"{page}.gz").read_bytes()) == (built_site / page).read_bytes()
    tiny = [p for p in built_site.rglob("*.js") if p.stat().st_size < 1024]
    assert tiny and not any(Path(f"{p}.gz").exists() for p in tiny)


def test_gzip_copies_are_the_same_bytes_every_build():
    data = b"<p>" + b"attention " * 500 + b"</p>"
    first = compress.gzip_bytes(data)
    assert first == compress.gzip_bytes(data)
    assert first[4:8] == b"\0\0\0\0"  # mtime 0: no build time in the file
    assert first[3] & 0x08 == 0  # and no file name


def test_large_files_are_compressed_once_and_then_taken_from_the_cache(tmp_path, monkeypatch):
    site, cache = tmp_path / "site", tmp_path / "cache"
    site.mkdir()
    big = os.urandom(20_000) * 10  # 200 kB that compress well (one block ten times)
    (site / "big.wasm").write_bytes(big)
    (site / "page.html").write_text("<p>a</p>" * 400)
    written = compress.compress_site(site, cache)
    assert sorted(p.name for p in written) == ["big.wasm.br", "big.wasm.gz", "page.html.gz"]
    assert brotli.decompress((site / "big.wasm.br").read_bytes()) == big

    def refuse(data):
        raise AssertionError("compressed again")
    monkeypatch.setattr(compress, "brotli_bytes", refuse)
    again = tmp_path / "again"
    again.mkdir()
    (again / "big.wasm").write_bytes(big)
    compress.compress_site(again, cache)
    assert gzip.decompress((again / "big.wasm.gz").read_bytes()) == big
    assert (again / "big.wasm.br").read_bytes() == (site / "big.wasm.br").read_bytes()


@pytest.mark.parametrize("accept, expected", [
    ("gzip, deflate, br", "br"),
    ("gzip", "gzip"),
    ("br;q=0, gzip;q=0.5", "gzip"),
    ("*", "br"),
    ("*;q=0", None),
    ("identity", None),
    ("", None),
    ("gzip;q=bad", None),
])
def test_the_encoding_follows_accept_encoding(tmp_path, accept, expected):
    path = tmp_path / "a.wasm"
    for suffix in ("", ".gz", ".br"):
        Path(f"{path}{suffix}").write_bytes(b"x")
    sent, encoding = compress.variant(path, accept)
    assert encoding == expected
    assert sent == Path(f"{path}{compress.ENCODINGS[expected]}") if expected else sent == path


def test_without_a_copy_the_file_itself_is_sent(tmp_path):
    path = tmp_path / "a.css"
    path.write_bytes(b"x")
    assert compress.variant(path, "gzip, br") == (path, None)
