"""`cmake --install build --prefix P`: the program, its shipped scenarios and logs, the man page, the
bash completion, the documentation and the Python package, and the installed crawlq running from
another directory on a shipped scenario by name."""
import os
import re
import shutil
import subprocess

from conftest import (BINARY, LOGS, SHIPPED, SOURCE_DIR, commands_of, complete, flags_of,
                      json_of, run, without_timing)


def test_the_installed_crawlq_optimizes_a_shipped_scenario_by_name_from_elsewhere(prefix, tmp_path):
    installed = prefix / "bin" / "crawlq"
    assert os.access(installed, os.X_OK)
    for name in SHIPPED:
        assert (prefix / "share" / "crawlq" / "scenarios" / f"{name}.yaml").is_file(), name
    for name in LOGS:
        assert (prefix / "share" / "crawlq" / "logs" / f"{name}.log").is_file(), name
    answer = json_of(run(installed, "optimize", "paper-example-1", "--json", cwd=tmp_path))
    built = json_of(run(BINARY, "optimize", SOURCE_DIR / "scenarios" / "data" / "paper-example-1.yaml", "--json"))
    assert without_timing(answer) == without_timing(built)
    listed = json_of(run(installed, "scenarios", "--json", cwd=tmp_path))
    assert listed["directory"] == str(prefix / "share" / "crawlq")
    assert all(entry["path"].startswith(str(prefix)) for entry in listed["scenarios"] + listed["logs"])
    # Moved elsewhere, the installation still finds its own scenarios: nothing points back at the build.
    moved = tmp_path / "moved"
    shutil.copytree(prefix, moved, symlinks=True)
    assert json_of(run(moved / "bin" / "crawlq", "scenarios", "--json"))["directory"] == str(moved / "share" / "crawlq")
    assert run(installed, "--version").stdout == run(BINARY, "--version").stdout


def test_the_man_page_holds_every_command_and_flag(prefix):
    page = (prefix / "share" / "man" / "man1" / "crawlq.1").read_text()
    assert page.startswith(".\\\"") and "\n.TH CRAWLQ 1 " in page
    readable = page.replace("\\-", "-")
    commands = commands_of(BINARY)
    assert len(commands) >= 11 and "scenarios" in commands and "fit" in commands
    for command in commands:
        paths = [[command]] + [[command, sub] for sub in commands_of(BINARY, command)]
        for path in paths:
            heading = f'.SS "crawlq {" ".join(path)} [OPTIONS]'
            assert heading in readable, path
            section = readable.split(heading, 1)[1].split("\n.SS ", 1)[0]
            for flag in flags_of(BINARY, *path):
                if flag != "--help":
                    assert f"\\fB{flag}\\fR" in section, (path, flag)
    for name in SHIPPED:
        assert f"\\fB{name}\\fR" in readable.replace("\\-", "-"), name
    for heading in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS", "FILES"):
        assert f"\n.SH {heading}\n" in page, heading
    # man-db renders it without a warning from groff.
    shown = subprocess.run(["man", "--warnings", "-l", str(prefix / "share" / "man" / "man1" / "crawlq.1")],
                           capture_output=True, text=True, env=os.environ | {"MANWIDTH": "100"})
    assert shown.returncode == 0 and shown.stderr == "", shown.stderr
    assert "crawlq optimize [OPTIONS] FILE" in shown.stdout


def test_bash_completes_commands_flags_and_shipped_names(prefix):
    script = prefix / "share" / "bash-completion" / "completions" / "crawlq"
    installed = prefix / "bin" / "crawlq"
    assert complete(script, installed, "op") == ["optimize"]
    assert sorted(complete(script, installed, "")) == sorted(commands_of(BINARY))
    assert complete(script, installed, "optimize", "paper-e") == ["paper-example-1"]
    assert set(complete(script, installed, "solve", "")) >= set(SHIPPED)
    assert "--sojourn" in complete(script, installed, "solve", "paper-example-1", "--so")
    assert complete(script, installed, "fit", "ar") == ["arrivals"]
    assert complete(script, installed, "fit", "arrivals", "--ph") == ["--phases"]
    assert complete(script, installed, "fit", "arrivals", "synth") == ["synthetic-crawler"]
    assert "paper-real-data" in complete(script, installed, "fit", "arrivals", "log.txt", "--scenario", "paper-r")
    assert complete(script, installed, "solve", "paper-example-1", "--export", "zz-no-such-file") == []


def test_the_documentation_installs_beside_them(prefix):
    docs = prefix / "share" / "doc" / "crawlq"
    for name in ("README.md", "interface.md", "tutorial.md", "lab.md", "paper-map.md"):
        assert (docs / name).is_file(), name
    assert (docs / "lab" / "overview.png").is_file()
