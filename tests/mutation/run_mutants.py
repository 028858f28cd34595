#!/usr/bin/python3
"""The suite's mutation score: plant each one-line mutant of mutants.txt, rebuild, run the tests that
should catch it, put the line back.

Usage (from anywhere; Debian's python3, no extra packages):

    tests/mutation/run_mutants.py BUILD_DIR [--mutants FILE] [--only 1,4-6] [--jobs 2]
                                  [--test-timeout 900] [--dry-run]

BUILD_DIR is an existing build directory whose tests have been built once (cmake --build BUILD_DIR).
The mutants are planted in the source tree BUILD_DIR was configured from (CMAKE_HOME_DIRECTORY of its
CMakeCache.txt), not necessarily the tree holding this script: where others edit the same working
tree, configure BUILD_DIR from a clone of it, or a build of theirs would compile a planted line:

    git clone -q /path/to/crawlq /tmp/mut/src
    cmake -S /tmp/mut/src -B /tmp/mut/build -DCMAKE_BUILD_TYPE=Release
    cmake --build /tmp/mut/build -j2
    tests/mutation/run_mutants.py /tmp/mut/build

Each mutant takes one incremental rebuild (its part's library and the test executables that its
ctest selection runs) and that selection; see the header of mutants.txt for the format and timings.
Not a ctest test: it takes far longer than CI allows.

A mutant is caught when the rebuild succeeds and some selected test fails, and survives when every
selected test passes. A rebuild that fails, an original line that is not found exactly once, or a
selection that names no test is an error: the mutant is then neither (fix the list). The file is put
back byte for byte after each mutant, on an error, on Ctrl-C and on SIGTERM; the script then checks
that `git diff` of the file is what it was before. Exit status: 0 when every mutant is caught, 1 when
any survived or was in error, 2 on bad arguments.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

SEPARATOR = " @@ "


class Mutant:
    def __init__(self, number, line_no, file, original, replacement, selection, description):
        self.number = number
        self.line_no = line_no
        self.file = file
        self.original = original
        self.replacement = replacement
        self.selection = selection
        self.description = description


def read_mutants(path):
    """Mutants in file order; '#' lines and blank lines are comments."""
    mutants = []
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split(SEPARATOR)
        if len(fields) != 5:
            sys.exit(f"{path}:{line_no}: a mutant has 5 fields separated by '{SEPARATOR.strip()}' "
                     f"(file, original, replacement, ctest selection, description), this one {len(fields)}")
        file, original, replacement, selection, description = (f.strip() for f in fields)
        if not original or original == replacement:
            sys.exit(f"{path}:{line_no}: the original is empty or the same as the replacement")
        mutants.append(Mutant(len(mutants) + 1, line_no, file, original, replacement, selection, description))
    return mutants


def parse_only(text, count):
    chosen = set()
    for part in text.split(","):
        a, _, b = part.partition("-")
        if not a.isdigit() or (b and not b.isdigit()):
            sys.exit(f"--only {text}: numbers and ranges like 1,4-6")
        first, last = int(a), int(b or a)
        if not 1 <= first <= last <= count:
            sys.exit(f"--only {text}: the list has mutants 1 to {count}")
        chosen.update(range(first, last + 1))
    return chosen


def source_dir(build_dir):
    cache = build_dir / "CMakeCache.txt"
    if not cache.is_file():
        sys.exit(f"{build_dir}: no CMakeCache.txt (configure and build it first)")
    for line in cache.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("CMAKE_HOME_DIRECTORY:"):
            return Path(line.split("=", 1)[1])
    sys.exit(f"{cache}: no CMAKE_HOME_DIRECTORY")


def git_diff(source, file):
    return subprocess.run(["git", "-C", str(source), "diff", "--", file], capture_output=True).stdout


def selected_targets(build_dir, selection):
    """The executables the ctest selection runs, by target name (their file names)."""
    listing = subprocess.run(["ctest", "--test-dir", str(build_dir), "--show-only=json-v1", *selection],
                             capture_output=True, text=True)
    if listing.returncode != 0:
        return None, listing.stderr.strip()
    tests = json.loads(listing.stdout).get("tests", [])
    targets = set()
    for test in tests:
        command = test.get("command") or []
        if command and Path(command[0]).is_relative_to(build_dir.resolve()):
            targets.add(Path(command[0]).name)
    # The command-line tests run the crawlq program itself; pytest runs the Python package (the module
    # and the .py files its build copies) and, to compare with it, the program.
    if any(t.startswith("cli") for t in targets):
        targets.add("crawlq")
    if any(label in ("python", "lab") for test in tests for label in labels_of(test)):
        targets.update({"crawlq", "crawlq_python"})
    return sorted(targets), len(tests)


def labels_of(test):
    for prop in test.get("properties") or []:
        if prop.get("name") == "LABELS":
            return prop.get("value") or []
    return []


def run(command, **kwargs):
    """subprocess.run in a session of its own, remembered so that a signal stops it before the file is
    put back (a compiler still reading the mutant could write an object newer than the restored file)."""
    global child
    timeout = kwargs.pop("timeout", None)
    child = subprocess.Popen(command, start_new_session=True, **kwargs)
    try:
        return subprocess.CompletedProcess(command, child.wait(timeout=timeout))
    except subprocess.TimeoutExpired:
        stop_child()
        raise
    finally:
        child = None


def stop_child():
    if child is not None and child.poll() is None:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()


def executable(build_dir, target):
    for path in sorted(build_dir.rglob(target)):
        if path.is_file() and os.access(path, os.X_OK) and "CMakeFiles" not in path.parts:
            return path
    return None


def run_tests(build_dir, selection, targets, args, log):
    """True when a test fails (a test past the timeout counts: a mutant that hangs a solver is caught)."""
    if selection[0].startswith("-"):
        test = run(["ctest", "--test-dir", str(build_dir), "--stop-on-failure", "-j", str(args.jobs),
                               "--timeout", str(args.test_timeout), *selection],
                              stdout=log, stderr=subprocess.STDOUT)
        return test.returncode != 0
    for target in targets:
        path = executable(build_dir, target)
        if path is None:
            raise RuntimeError(f"no executable {target} in {build_dir}")
        log.write(f"--- {path}\n")
        log.flush()
        try:
            # Catch2: stop at the first failed assertion; from its folder, as ctest runs it.
            test = run([str(path), "--abort"], cwd=path.parent, stdout=log, stderr=subprocess.STDOUT,
                                  timeout=args.test_timeout)
        except subprocess.TimeoutExpired:
            return True
        if test.returncode != 0:
            return True
    return False


class Planted:
    """The mutant's file while it is changed: restore() puts its saved bytes back, at most once."""

    def __init__(self, path):
        self.path = path
        self.saved = path.read_bytes()
        self.restored = False

    def restore(self):
        if not self.restored:
            self.path.write_bytes(self.saved)
            self.restored = True


def run_one(mutant, source, build_dir, args, log):
    path = source / mutant.file
    if not path.is_file():
        return "error", f"no file {mutant.file}"
    text = path.read_text(encoding="utf-8")
    found = text.count(mutant.original)
    if found != 1:
        return "error", f"the original is found {found} times in {mutant.file} (once expected)"
    selection = mutant.selection.split()
    if selection[0].startswith("-"):
        targets, tests = selected_targets(build_dir, selection)
        if targets is None or not tests:
            return "error", f"ctest {mutant.selection}: selects no test {tests if targets is None else ''}"
    else:
        targets = [t.strip() for t in mutant.selection.split(",") if t.strip()]
    touched.update(targets)

    diff_before = git_diff(source, mutant.file)
    planted = Planted(path)
    global current
    current = planted
    try:
        path.write_text(text.replace(mutant.original, mutant.replacement), encoding="utf-8")
        started = time.monotonic()
        build = run(["cmake", "--build", str(build_dir), "-j", str(args.jobs), "--target", *targets],
                               stdout=log, stderr=subprocess.STDOUT)
        built = time.monotonic()
        if build.returncode != 0:
            return "error", "the mutant does not compile (see the log)"
        caught = run_tests(build_dir, selection, targets, args, log)
        done = time.monotonic()
        timing = f"build {built - started:.0f} s, tests {done - built:.0f} s"
        return ("caught" if caught else "SURVIVED"), timing
    finally:
        planted.restore()
        current = None
        if path.read_bytes() != planted.saved or git_diff(source, mutant.file) != diff_before:
            print(f"FATAL: {mutant.file} is not back as it was; compare it with git diff", file=sys.stderr)
            sys.exit(3)


current = None
child = None
touched = set()  # every target rebuilt with a mutant in it


def on_signal(signum, _frame):
    stop_child()
    if current is not None:
        current.restore()
    sys.exit(128 + signum)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_dir", type=Path)
    parser.add_argument("--mutants", type=Path, default=Path(__file__).with_name("mutants.txt"))
    parser.add_argument("--only", help="mutant numbers, e.g. 1,4-6")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--test-timeout", type=int, default=900, help="seconds per ctest test")
    parser.add_argument("--dry-run", action="store_true", help="check that each original is found, plant nothing")
    parser.add_argument("--skip-baseline", action="store_true",
                        help="do not first run each selection on the unmutated tree (it must pass)")
    args = parser.parse_args()

    mutants = read_mutants(args.mutants)
    build_dir = args.build_dir.resolve()
    source = source_dir(build_dir)
    if args.only:
        chosen = parse_only(args.only, len(mutants))
        mutants = [m for m in mutants if m.number in chosen]
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    log_path = build_dir / "mutation.log"
    results = []
    with open(log_path, "a", encoding="utf-8") as log:
        # A test that fails without a mutant would count every mutant as caught: each executable and
        # each ctest selection once, on the tree as it is.
        if not args.dry_run and not args.skip_baseline:
            executables = sorted({t.strip() for m in mutants if not m.selection.startswith("-")
                                  for t in m.selection.split(",") if t.strip()})
            runs = [([name], [name]) for name in executables]
            runs += [(m.selection.split(), None) for m in mutants if m.selection.startswith("-")]
            for words, targets in runs:
                if targets is None:
                    targets = selected_targets(build_dir, words)[0] or []
                print(f"baseline: {' '.join(words)}", flush=True)
                log.write(f"\n===== baseline: {' '.join(words)}\n")
                log.flush()
                started = time.monotonic()
                built = run(["cmake", "--build", str(build_dir), "-j", str(args.jobs), "--target", *targets],
                                       stdout=log, stderr=subprocess.STDOUT).returncode == 0
                if not built or run_tests(build_dir, words, targets, args, log):
                    print(f"the unmutated tree fails {' '.join(words)}: fix that first (see {log_path})",
                          file=sys.stderr)
                    return 1
                print(f"    passes ({time.monotonic() - started:.0f} s)", flush=True)
        for m in mutants:
            if args.dry_run:
                found = (source / m.file).read_text(encoding="utf-8").count(m.original) \
                    if (source / m.file).is_file() else 0
                verdict, note = ("ok", "") if found == 1 else ("error", f"found {found} times")
            else:
                print(f"[{m.number}/{len(mutants)}] {m.file}: {m.description}", flush=True)
                log.write(f"\n===== mutant {m.number}: {m.file}: {m.description}\n")
                log.flush()
                verdict, note = run_one(m, source, build_dir, args, log)
            results.append((m, verdict, note))
            if not args.dry_run:
                print(f"    {verdict} ({note})", flush=True)
    # Rebuild what a mutant reached from the tree as it is, so that no mutated binary is left behind.
    if touched:
        subprocess.run(["cmake", "--build", str(build_dir), "-j", str(args.jobs), "--target", *sorted(touched)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    width = max((len(m.file) for m, _, _ in results), default=4)
    print(f"\n{'#':>3}  {'file':<{width}}  {'verdict':<8}  description")
    for m, verdict, note in results:
        print(f"{m.number:>3}  {m.file:<{width}}  {verdict:<8}  {m.description}" + (f"  [{note}]" if note else ""))
    caught = sum(v == "caught" for _, v, _ in results)
    survived = sum(v == "SURVIVED" for _, v, _ in results)
    errors = sum(v == "error" for _, v, _ in results)
    if not args.dry_run:
        scored = caught + survived
        score = f"{100.0 * caught / scored:.0f}%" if scored else "n/a"
        print(f"\nmutation score: {caught} caught of {scored} ({score}); {survived} survived, {errors} in error"
              f"; log in {log_path}")
    elif errors:
        print(f"\n{errors} mutants whose original is not found exactly once")
    return 0 if survived == 0 and errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
