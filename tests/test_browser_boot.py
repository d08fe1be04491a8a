"""sitebuild.browser_boot: where Python's start goes, as the benchmark prints it."""

from __future__ import annotations

from sitebuild import browser_boot


def test_each_step_is_the_median_of_the_boots_that_took_it_in_the_order_taken():
    """A step only some boots took keeps its place: the benchmark printed the WebAssembly
    download after `import attention` when the first boot had not had it."""
    boots = [{"runtime script": 90.0, "import attention": 200.0},
             {"runtime script": 110.0, "WebAssembly download": 400.0, "import attention": 260.0},
             {"runtime script": 100.0, "import attention": 220.0}]
    steps = browser_boot.median_steps(boots)
    assert list(steps) == ["runtime script", "WebAssembly download", "import attention"]
    assert steps == {"runtime script": 100.0, "import attention": 220.0, "WebAssembly download": 400.0}


def test_the_report_adds_the_steps_before_ready_and_leaves_the_first_answer_out(capsys):
    result = {"cold": 4000.0, "steps": {"compile and interpreter start": 2000.0,
                                        "import attention": 250.5,
                                        "first answer (a typed sentence)": 30.0}}
    browser_boot.report_steps("worker", result)
    lines = capsys.readouterr().out.splitlines()
    assert lines[3].split() == ["import", "attention", "250.5"]
    assert lines[-1].split()[5:8] == ["2250.5", "of", "4000.0"]


def test_a_page_without_a_worker_prints_no_steps(capsys):
    browser_boot.report_steps("main thread (baseline)", {"cold": 1.0, "steps": {}})
    assert capsys.readouterr().out == ""
