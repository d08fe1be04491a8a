"""Where Python's start goes, step by step, as the benchmark reads it: the measures runtime.js
makes of the worker's steps (worker.js: the runtime's script, the WebAssembly download, compile
and interpreter start, the numpy and attention wheels, import numpy, import attention) and of
Python's first answer."""

from __future__ import annotations

import statistics

# Each step's duration in the page, by its name after "python: ".
STEPS = """() => Object.fromEntries(performance.getEntriesByType('measure')
  .filter(m => m.name.startsWith('python: ')).map(m => [m.name.slice(8), m.duration]))"""


def median_steps(boots: list[dict]) -> dict[str, float]:
    """Each step's median over the boots that had it, in the order the boot with the most
    steps took them (a step some boots skip, as the WebAssembly download when the HTTP cache
    had it before the runtime's script asked, keeps its place among the others)."""
    fullest = max(boots, key=len, default={})
    names = list(dict.fromkeys([*fullest, *(name for b in boots for name in b)]))
    return {name: statistics.median([b[name] for b in boots if name in b]) for name in names}


def report_steps(name: str, result: dict) -> None:
    """Print where Python's start went, step by step (cold cache, medians)."""
    steps = result.get("steps")
    if not steps:
        return
    print(f"\n{'where the start goes, ' + name + ', cold (ms)':<60}{'median':>10}")
    for step, ms in steps.items():
        print(f"  {step:<58}{ms:>10.1f}")
    counted = sum(ms for step, ms in steps.items() if not step.startswith("first answer"))
    print(f"  {'(the steps above, before ready)':<58}{counted:>10.1f}   of {result['cold']:.1f} to ready:"
          " the rest is the page's own load before it starts Python")
