#!/usr/bin/env python3
"""Every performance figure of the issues on speed, each with the command behind it: the stationary
solve at scale by thread count, the sojourn times of a whole `crawlq solve --sojourn` process, the
quantiles of a stiff chain by Krylov steps and by uniformisation, the transient and the periodic
regime of a day, the threshold search, the simulator's events per second and its two-thread
speed-up.

    benchmarks/figures.py [--build DIR] [--small] [--threads 1,2,...] [--json FILE]

--small runs every command at sizes that take seconds (what CI runs, so that each keeps building
and answering); without it, the sizes the issues name (K = 20 for the stationary solve, for
instance: minutes on two cores). The figures are wall times measured once on a quiet machine: for
A/B comparisons take medians over repeated runs (farm-bench). A command that fails stops the run
with its message (exit 1); a missed target is printed, never a failure."""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1]
PAPER = SOURCE / "scenarios" / "data" / "paper-example-1.yaml"


def number(pattern):
    """A reader of the first match of `pattern` (one group) in the output, as a number."""
    def read(output, wall):
        found = re.search(pattern, output)
        if not found:
            raise ValueError(f"no match for {pattern!r} in:\n{output}")
        return float(found.group(1))
    return read


def wall_time(output, wall):
    return wall


def json_key(*keys):
    def read(output, wall):
        value = json.loads(output)
        for key in keys:
            value = value[key]
        return float(value)
    return read


WORK = tempfile.TemporaryDirectory(prefix="crawlq-figures-")


def scenario_at(capacity, extra="", name=""):
    """The paper's first example at `capacity` under 3 robots up to 2 pages, then 1 (the optimum's
    shape at K = 5), written to a file of the run's own directory."""
    text = PAPER.read_text()
    text = re.sub(r"(?m)^capacity:.*$", f"capacity: {capacity}", text)
    text = re.sub(r"(?ms)^policy:.*?(?=^\S|\Z)", "", text)
    text += f"\npolicy:\n  thresholds: [-1, 2, 2]\n{extra}"
    path = Path(WORK.name) / f"paper-example-1-k{capacity}{name}.yaml"
    path.write_text(text)
    return str(path)


def day_rhythm(pieces):
    """A day of `pieces` pieces over 24 time units: the arrivals swing 60% about their mean."""
    scales = [round(1 + 0.6 * math.sin(2 * math.pi * (i + 0.5) / pieces), 4) for i in range(pieces)]
    return f"rhythm: {{period: 24, scales: [{', '.join(map(str, scales))}]}}\n"


def figures(build, small, thread_counts, large=False):
    """(name, unit, target or None, command, reader) for every figure."""
    bench = lambda name: str(Path(build) / "benchmarks" / name)
    crawlq = str(Path(build) / "app" / "crawlq")
    k_solve = 12 if small else 20
    k_sojourn = 10 if small else 20
    k_transient = 10 if small else 16
    k_day = 5
    k_day_large = 8 if small else 12
    out = []
    for t in thread_counts:
        target = {2: 2.5, 16: None}.get(t) if k_solve == 20 else None
        out.append((f"stationary solve, K = {k_solve}, {t} thread(s)", "s", target,
                    [bench("solve_at_scale"), "--threads", str(t), str(k_solve)],
                    number(r"solve ([0-9.]+) s")))
        out.append((f"stationary solve, W = M = 1, K = {k_solve + 1}, {t} thread(s)", "s", None,
                    [bench("solve_at_scale"), "--single-phase", "--threads", str(t), str(k_solve + 1)],
                    number(r"solve ([0-9.]+) s")))
    if large:
        # 67 million states, about 6 GiB: on the most threads asked for.
        t = max(thread_counts)
        out.append((f"stationary solve, K = 24, {t} thread(s)", "s", {2: 60.0, 16: 20.0}.get(t),
                    [bench("solve_at_scale"), "--threads", str(t), "24"], number(r"solve ([0-9.]+) s")))
        out.append(("  its peak memory", "GiB", None, [bench("solve_at_scale"), "--threads", str(t), "24"],
                    number(r"peak memory ([0-9.]+) GiB")))
    sojourn_file = scenario_at(k_sojourn)
    for t in thread_counts:
        target = {2: 6.0, 16: 2.5}.get(t) if k_sojourn == 20 else None
        # As a user runs it, the paper's clock lumped (both phases exit at 0.2); then the full chain.
        out.append((f"crawlq solve --sojourn, K = {k_sojourn}, {t} thread(s): whole process, lumped", "s",
                    target, [crawlq, "solve", sojourn_file, "--sojourn", "--json", "--threads", str(t)],
                    wall_time))
        full = [crawlq, "solve", sojourn_file, "--sojourn", "--json", "--full-chain", "--threads", str(t)]
        out.append((f"crawlq solve --sojourn --full-chain, K = {k_sojourn}, {t} thread(s): whole process", "s",
                    target, full, wall_time))
        out.append((f"  of which the sojourn times (seconds_sojourn)", "s", None, full,
                    json_key("seconds_sojourn")))
        parts = [bench("sojourn_at_scale"), "--threads", str(t), str(k_sojourn)]
        out.append((f"  the tagged chain's moments (block solves)", "s", None, parts,
                    number(r"moments ([0-9.]+) s")))
        out.append((f"  the nine quantiles (uniformisation)", "s", None, parts,
                    number(r"quantiles ([0-9.]+) s")))
    # A stiff chain: the first service phase 100 times as fast, 5,300 jumps within the sojourns'
    # reach, where the automatic choice takes Krylov steps; uniformisation beside it.
    k_stiff = 12 if small else 16
    for method in ("krylov", "uniformisation"):
        out.append((f"the nine quantiles, K = {k_stiff}, service phase 100x, by {method}", "s", None,
                    [bench("sojourn_at_scale"), "--threads", "1", "--fast", "100", "--law-method", method,
                     str(k_stiff)],
                    number(r"quantiles ([0-9.]+) s")))
    out.append((f"transient, K = {k_transient}, 50 times up to 50, 2 threads", "s", 10.0 if not small else None,
                [bench("transient_at_scale"), "--threads", "2", str(k_transient)],
                number(r"up to 50: ([0-9.]+) s")))
    day = scenario_at(k_day, day_rhythm(24), "-day")
    out.append((f"periodic regime, 24 pieces, K = {k_day}: whole process", "s", 0.5,
                [crawlq, "solve", day, "--json"], wall_time))
    day_large = scenario_at(k_day_large, day_rhythm(24), "-day")
    out.append((f"periodic regime, 24 pieces, K = {k_day_large}: whole process", "s",
                10.0 if k_day_large == 12 else None, [crawlq, "solve", day_large, "--json"], wall_time))
    k_search, pieces_search = (3, 6) if small else (k_day, 24)
    out.append((f"optimize per piece, {pieces_search} pieces, K = {k_search}: whole process", "s",
                None if small else 30.0,
                [crawlq, "optimize", scenario_at(k_search, day_rhythm(pieces_search), f"-day{pieces_search}"),
                 "--json"], wall_time))
    search = "local:10" if small else "local:14"
    out.append((f"threshold search {search}, all cores", "s", None,
                [bench("optimize_at_scale"), "--threads", "0", search],
                number(r":\s+([0-9.]+) s,")))
    out.append(("simulator, K = 5, 1 thread", "million events/s", None if small else 25.0,
                [bench("simulation_speed")] + (["--quick"] if small else []),
                number(r"K =  5, 1 thread\(s\): .* = ([0-9.]+) million events/s")))
    out.append(("simulator, K = 5, speed-up with 2 threads", "x", None if small else 1.9,
                [bench("simulation_speed")] + (["--quick"] if small else []),
                number(r"K =  5: speed-up with 2 threads ([0-9.]+)x")))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=str(SOURCE / "build"), help="the Release build directory")
    parser.add_argument("--small", action="store_true", help="sizes that take seconds (CI)")
    parser.add_argument("--threads", default=None,
                        help="thread counts to time, e.g. 1,2,4,8,16 (default: 1 and the cores there are)")
    parser.add_argument("--json", default=None, help="FILE: the figures as JSON too")
    parser.add_argument("--large", action="store_true",
                        help="also K = 24 (67 million states, about 6 GiB) on the most threads asked for")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    try:
        counts = sorted({int(c) for c in args.threads.split(",")}) if args.threads else sorted({1, cores})
    except ValueError:
        parser.error(f"--threads {args.threads}: give whole numbers apart by commas, e.g. 1,2")
    if any(c < 1 for c in counts):
        parser.error(f"--threads {args.threads}: each count must be at least 1")
    for program in ("app/crawlq", "benchmarks/solve_at_scale"):
        if not (Path(args.build) / program).exists():
            parser.error(f"--build {args.build}: no {program} there; build first (cmake --build DIR)")
    rows = []
    # What crawlq sets for itself when it starts (app/runtime_environment.hpp), for the benchmark
    # programs too: the passive wait, so that one thread count does not spin against another's
    # leftovers.
    env = dict(os.environ)
    if "OMP_WAIT_POLICY" not in env and "GOMP_SPINCOUNT" not in env:
        env.update(OMP_WAIT_POLICY="PASSIVE", GOMP_SPINCOUNT="10000")
    print(f"crawlq performance figures on {os.uname().nodename}: {cores} cores, "
          f"{'small sizes (CI)' if args.small else 'the issues sizes'}\n")
    planned = list(figures(args.build, args.small, counts, args.large and not args.small))
    # Each row is printed as its command ends (the run's progress), in columns as wide as the
    # longest name.
    width = max(len("figure"), *(len(name) for name, *_ in planned))
    print(f"  {'figure':<{width}} {'value':>10}  {'unit':<17} {'target':>8}")
    outputs = {}
    for name, unit, target, command, read in planned:
        key = tuple(command)
        if key not in outputs:
            started = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, env=env)
            wall = time.perf_counter() - started
            if done.returncode != 0:
                sys.exit(f"figures.py: `{' '.join(command)}` failed (exit {done.returncode}):\n{done.stderr}")
            outputs[key] = (done.stdout, wall)
        output, wall = outputs[key]
        value = read(output, wall)
        missed = target is not None and ((unit.startswith("million") or unit == "x") and value < target
                                         or unit == "s" and value > target)
        shown_target = "-" if target is None else f"{target:g}{' MISSED' if missed else ''}"
        print(f"  {name:<{width}} {value:>10.3f}  {unit:<17} {shown_target:>8}")
        # The command as a reader types it: the program's name, the run's scenarios by their names.
        shown = [Path(c).name if i == 0 or c.startswith(WORK.name) else c for i, c in enumerate(command)]
        print(f"      $ {' '.join(shown)}")
        rows.append({"figure": name, "value": value, "unit": unit, "target": target,
                     "missed": missed, "command": command})
    if args.json:
        Path(args.json).write_text(json.dumps({"cores": cores, "small": args.small, "figures": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
