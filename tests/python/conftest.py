"""Where the tests find crawlq: the package on PYTHONPATH (build/python), the command line in
$CRAWLQ_BINARY and the sources in $CRAWLQ_SOURCE_DIR, all three set by ctest."""
import json
import os
import subprocess
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("CRAWLQ_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BINARY = os.environ.get("CRAWLQ_BINARY", str(SOURCE_DIR / "build" / "app" / "crawlq"))
SCENARIOS = SOURCE_DIR / "scenarios" / "data"
PAPER = SCENARIOS / "paper-example-1.yaml"
# Keys that measure the run, not the model: they differ between any two runs.
TIMING_KEYS = {"seconds", "events_per_second"}  # and every "seconds_..." (a part of the time)


def without_timing(value):
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING_KEYS and not k.startswith("seconds_")}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


class Cli:
    """The command line, run the way a user runs it."""

    def run(self, *args, cwd=None):
        return subprocess.run([BINARY, *map(str, args)], capture_output=True, text=True, cwd=cwd)

    def json(self, *args, cwd=None):
        done = self.run(*args, "--json", cwd=cwd)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def refusal(self, *args, cwd=None):
        """The one line of a refused command, without the program's "crawlq: "."""
        done = self.run(*args, cwd=cwd)
        assert done.returncode == 2, (done.returncode, done.stderr)
        line = done.stderr.strip()
        return line[len("crawlq: "):] if line.startswith("crawlq: ") else line


@pytest.fixture(scope="session")
def cli():
    return Cli()
