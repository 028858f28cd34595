"""A `crawlq lab` server for the tests: started on a free port, stopped at the end."""
import json
import os
import re
import signal
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("CRAWLQ_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BINARY = os.environ.get("CRAWLQ_BINARY", str(SOURCE_DIR / "build" / "app" / "crawlq"))
ARTEFACTS = Path(os.environ.get("CRAWLQ_ARTEFACTS", SOURCE_DIR / "build" / "tests" / "lab"))
SCENARIOS = SOURCE_DIR / "scenarios" / "data"


class Lab:
    def __init__(self, *files, env=None):
        self.process = subprocess.Popen([BINARY, "lab", "--port", "0", *map(str, files)], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, env=env)
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, (line, self.process.stderr.read() if self.process.poll() is not None else "")
        self.url = f"http://127.0.0.1:{found.group(1)}"

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=60) as response:
            return response.status, response.headers.get("Content-Type"), response.read()

    def post(self, path, body, raw=None):
        data = raw if raw is not None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as e:
            text = e.read()
            return e.code, json.loads(text) if text else None

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def lab():
    server = Lab()
    yield server
    assert server.stop() == 0


def cli_json(*args):
    done = subprocess.run([BINARY, *map(str, args), "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def cli_refusal(*args):
    done = subprocess.run([BINARY, *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    return line[len("crawlq: "):] if line.startswith("crawlq: ") else line


def without_timing(value):
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k != "seconds" and not k.startswith("seconds_")}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value
