"""tools/diff-builds: what a reader gets from two builds, hashed names set aside."""

from __future__ import annotations

import doctest
import importlib.machinery
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_loader = importlib.machinery.SourceFileLoader("diff_builds", str(ROOT / "tools" / "diff-builds"))
_spec = importlib.util.spec_from_loader("diff_builds", _loader)
diff_builds = importlib.util.module_from_spec(_spec)
_loader.exec_module(diff_builds)


def test_its_examples():
    assert doctest.testmod(diff_builds).failed == 0


def _site(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_hashes_alone_are_no_difference_but_words_files_and_numbers_are(tmp_path):
    old = _site(tmp_path / "old", {
        "a/index.html": '<body data-build="0123456789abcdef"><link href="s.0123456789.css">0.835',
        "static/answers/bench.0123456789.json": '{"keys": {}}', "static/page.0123456789.js": "1"})
    same = _site(tmp_path / "same", {
        "a/index.html": '<body data-build="fedcba9876543210"><link href="s.9876543210.css">0.835',
        "static/answers/bench.9876543210.json": '{"keys": {}}', "static/page.9876543210.js": "2"})
    assert diff_builds.differences(old, same) == []
    other = _site(tmp_path / "other", {
        "a/index.html": '<body data-build="fedcba9876543210"><link href="s.9876543210.css">0.836',
        "static/page.9876543210.js": "1", "b/index.html": ""})
    report = diff_builds.differences(old, other)
    assert report[:2] == ["only in OLD: static/answers/bench.#.json", "only in NEW: b/index.html"]
    assert "-<body data-build=\"#\"><link href=\"s.#.css\">0.835" in report[2]
    assert len(report) == 3
