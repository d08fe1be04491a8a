"""The benchmark's Lighthouse report (sitebuild.lighthouse): every run is shown, and one run
under 100 is enough to say the page is over its target."""

from __future__ import annotations

from sitebuild import lighthouse


def _run(score: int, lcp: float = 1400.0, fcp: float = 180.0) -> dict:
    return {"score": score, "lcp": lcp, "tbt": 0.0, "observed_fcp": fcp}


def _lines(capsys) -> dict[str, str]:
    return {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[1:]}


def test_every_run_is_printed_and_one_late_paint_fails_the_target(capsys):
    lighthouse.report_lighthouse({"bench/": [_run(100), _run(99, 1960.0, 1260.0), _run(100)],
                                  "mixture/": [_run(100, 1300.0, 150.0), _run(100, 1350.0, 170.0)]})
    lines = _lines(capsys)
    assert "scores 100 99 100 " in lines["/bench/"]
    assert "median   1400 ms" in lines["/bench/"]
    assert "(observed) 180–1260 ms" in lines["/bench/"]
    assert lines["/bench/"].endswith("OVER TARGET]")
    assert "median   1325 ms" in lines["/mixture/"]
    assert lines["/mixture/"].endswith("every run: ok]")


def test_a_lighthouse_that_could_not_run_says_why(capsys):
    lighthouse.report_lighthouse("npx or Chromium is missing")
    out = capsys.readouterr().out
    assert "not measured: npx or Chromium is missing" in out
    assert "ok" not in out
