"""The benchmark's report (sitebuild.browser_benchmark): each bench figure is read against the
probe's floor, a click that changes one text node, which cannot be painted before the next frame."""

from __future__ import annotations

from sitebuild import browser_benchmark as bb


def _row(median: float, p95: float) -> dict:
    return {"median": median, "p95": p95, "clicks": 60}


def test_each_bench_figure_is_shown_beside_the_floor(capsys):
    runtime = {"cold": 1.0, "warm": 1.0, "long_task": 0.0, "median": 1.0, "p95": 1.0,
               "clicks": 60, "boots": 3}
    results = {"worker (this site)": dict(runtime),
               "bench": {bb.FLOOR: _row(18.5, 19.5), "8 words": _row(30.0, 36.0),
                         "40 words": _row(60.0, 111.5)},
               "bench before": {"8 words": _row(50.0, 72.0)}}
    bb.report(results)
    lines = {line.split("  ")[0]: line for line in capsys.readouterr().out.splitlines()}
    assert lines["8 words"].split()[2:] == ["30.0", "36.0", "60", "72.0", "0.500", "16.5", "<", "16"]
    assert lines["40 words"].split()[2:] == ["60.0", "111.5", "60", "n/a", "n/a", "92.0", "<", "16"]
    floor = lines[bb.FLOOR].split()
    assert floor[-6:] == ["19.5", "60", "n/a", "n/a", "<", "16"]  # no difference to itself
    assert any("no click here measures under 19.5 ms" in line for line in lines.values())


def test_without_a_floor_no_difference_is_shown(capsys):
    results = {"worker (this site)": {"cold": 1.0, "warm": 1.0, "long_task": 0.0, "median": 1.0,
                                      "p95": 1.0, "clicks": 1, "boots": 1},
               "bench": {"8 words": _row(30.0, 36.0)}}
    bb.report(results)
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("8 words"))
    assert row.split()[2:] == ["30.0", "36.0", "60", "n/a", "n/a", "<", "16"]
    assert "the floor is" not in out
