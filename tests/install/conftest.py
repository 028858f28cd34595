"""Where the tests find crawlq (set by ctest): the built program, the sources, the build tree."""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ["CRAWLQ_SOURCE_DIR"])
BUILD_DIR = Path(os.environ["CRAWLQ_BUILD_DIR"])
BINARY = Path(os.environ["CRAWLQ_BINARY"])
ARTEFACTS = Path(os.environ["CRAWLQ_ARTEFACTS"])
VERSION = os.environ["CRAWLQ_VERSION"]
SHIPPED = sorted(p.stem for p in (SOURCE_DIR / "scenarios" / "data").glob("*.yaml"))
LOGS = sorted(p.stem for p in (SOURCE_DIR / "scenarios" / "logs").glob("*.log"))
TIMING_KEYS = {"seconds", "events_per_second"}  # and every "seconds_..." (a part of the time)


def run(program, *args, cwd=None, env=None, timeout=300):
    return subprocess.run([str(program), *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=timeout)


def json_of(done):
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def without_timing(value):
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING_KEYS and not k.startswith("seconds_")}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


def commands_of(binary, *path):
    """The commands `crawlq [path] --help` lists, read from the help the user sees."""
    help_text = run(binary, *path, "--help").stdout
    section = help_text.split("Subcommands:", 1)
    if len(section) == 1:
        return []
    return re.findall(r"^  (\w[\w-]*)\s", section[1], re.MULTILINE)


def flags_of(binary, *path):
    """The long flags `crawlq path... --help` lists."""
    help_text = run(binary, *path, "--help").stdout
    return sorted(set(re.findall(r"^  (?:-\w,)?(--[a-z][a-z0-9-]*)", help_text.split("Options:", 1)[-1], re.MULTILINE)))


def complete(script, binary, *words):
    """What the bash completion offers for `crawlq words...` (the last word being typed)."""
    words_text = " ".join(f"'{w}'" for w in (str(binary), *words))
    done = subprocess.run(["bash", "-c", f'source "{script}"; COMP_WORDS=({words_text}); COMP_CWORD={len(words)};'
                           ' _crawlq; printf "%s\\n" "${COMPREPLY[@]}"'], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if line]


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    """The build installed by `cmake --install` into a scratch prefix."""
    prefix = tmp_path_factory.mktemp("install") / "prefix"
    done = subprocess.run(["cmake", "--install", str(BUILD_DIR), "--prefix", str(prefix)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    return prefix
