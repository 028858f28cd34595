"""The GIL released: two Python threads solve at once, and Ctrl-C stops a long run within a second."""
import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import crawlq
from conftest import PAPER


def test_two_threads_solve_at_once_and_agree_with_one():
    scenario = crawlq.load(PAPER).with_capacity(10)
    policies = [[-1, 2, 2], [0, 3, 5], [1, 1, 8], [-1, -1, 4]]
    alone = [scenario.solve(thresholds=p).to_dict()["cost"] for p in policies]
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(lambda p: scenario.solve(thresholds=p).to_dict()["cost"], policies))
    assert together == alone


LONG_RUNS = {
    "simulate": "scenario.simulate(precision=1e-6, time_limit=600, threads=1)",
    "optimize": "scenario.with_capacity(10).optimize('levels', max_maps=10**8)",  # 4^11 level maps
}


@pytest.mark.parametrize("work", LONG_RUNS, ids=list(LONG_RUNS))
def test_ctrl_c_stops_a_long_run_within_a_second(work):
    # A child interpreter starts work that would run for minutes, is sent SIGINT, and must raise
    # KeyboardInterrupt soon after and still answer a solve.
    script = textwrap.dedent(f"""
        import sys, time, crawlq
        scenario = crawlq.load({str(PAPER)!r})
        print("ready", flush=True)
        try:
            {LONG_RUNS[work]}
            print("finished", flush=True)
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
        print("cost", scenario.solve().cost, flush=True)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=os.environ)
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.5)  # inside the simulation by now
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    lines = out.split("\n")
    assert lines[0].startswith("interrupted"), out
    assert float(lines[0].split()[1]) - sent < 1.0
    assert lines[1].startswith("cost 63.54")
