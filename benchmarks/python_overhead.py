#!/usr/bin/python3
"""What a call from Python costs over the engine it calls.

Usage: PYTHONPATH=build/python benchmarks/python_overhead.py [build/app/crawlq]

1. `solve` of the paper's first example: the median time of a Python call, beside the solve's own
   time (its `seconds` key), over 2000 calls.
2. `optimize` of the same scenario (Table 1's search): the median of 7 Python calls against the median
   of 7 runs of `crawlq optimize FILE --json` as a process.
"""
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import crawlq

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "data" / "paper-example-1.yaml"
BINARY = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parents[1] / "build" / "app" / "crawlq")


def timed(call, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


scenario = crawlq.load(SCENARIO)
scenario.solve()  # warm: the first call loads the shared libraries' pages
call, _ = timed(scenario.solve, 2000)
engine = statistics.median(scenario.solve().to_dict()["seconds"] for _ in range(2000))
print(f"solve, paper-example-1: {call * 1e3:.3f} ms a Python call; the solve itself {engine * 1e3:.3f} ms "
      f"(overhead {(call - engine) * 1e3:.3f} ms)")

python_optimize, _ = timed(scenario.optimize, 7)
process, _ = timed(lambda: json.loads(subprocess.run([BINARY, "optimize", str(SCENARIO), "--json"], check=True,
                                                     capture_output=True, text=True).stdout), 7)
print(f"optimize, paper-example-1 (Table 1's search): {python_optimize * 1e3:.1f} ms from Python, "
      f"{process * 1e3:.1f} ms as a process ({100 * (python_optimize / process - 1):+.1f}%)")
