"""The shipped scenarios by name, from any directory, with the build tree's crawlq: `crawlq scenarios`,
a name wherever a command takes a FILE, a real file of that name winning, a missing name refused
naming both places looked in; and `crawlq --version`."""
import re
import shutil
import subprocess
from pathlib import Path

from conftest import BINARY, LOGS, SHIPPED, SOURCE_DIR, VERSION, json_of, run, without_timing


def test_scenarios_lists_every_shipped_file_once_with_its_kind_and_summary():
    listed = json_of(run(BINARY, "scenarios", "--json"))
    assert [s["name"] for s in listed["scenarios"]] == SHIPPED
    assert [s["name"] for s in listed["logs"]] == LOGS
    for entry in listed["scenarios"]:
        text = (SOURCE_DIR / "scenarios" / "data" / f"{entry['name']}.yaml").read_text()
        assert entry["kind"] == ("refresh" if re.search(r"^refresh:", text, re.MULTILINE) else "queue"), entry
        assert entry["summary"] and entry["summary"] in " ".join(
            line.lstrip("# ") for line in text.splitlines() if line.startswith("#")), entry
        assert open(entry["path"]).read() == text
    table = run(BINARY, "scenarios")
    assert table.returncode == 0, table.stderr
    for name in SHIPPED + LOGS:
        assert len([line for line in table.stdout.splitlines() if line.split()[:1] == [name]]) == 1, name
    assert max(len(line) for line in table.stdout.splitlines() if listed["directory"] not in line) <= 100
    assert run(BINARY, "scenarios", "--names").stdout.split() == SHIPPED + LOGS


def test_a_shipped_name_works_from_any_directory_as_its_file_does(tmp_path):
    for command in (["describe"], ["solve", "--sojourn"], ["optimize"]):
        for name in ("paper-example-1", "teaching-two-robots", "paper-example-1.yaml"):
            by_path = json_of(run(BINARY, *command[:1], SOURCE_DIR / "scenarios" / "data" / (name.removesuffix(".yaml") + ".yaml"),
                                  *command[1:], "--json"))
            by_name = json_of(run(BINARY, *command[:1], name, *command[1:], "--json", cwd=tmp_path))
            assert without_timing(by_name) == without_timing(by_path), (command, name)
    refresh = json_of(run(BINARY, "refresh", "refresh-paper-example", "--json", cwd=tmp_path))
    assert refresh == json_of(run(BINARY, "refresh", SOURCE_DIR / "scenarios" / "data" / "refresh-paper-example.yaml",
                                  "--json"))
    fitted = json_of(run(BINARY, "fit", "arrivals", "synthetic-crawler", "--json", cwd=tmp_path))
    assert without_timing(fitted) == without_timing(json_of(run(
        BINARY, "fit", "arrivals", SOURCE_DIR / "scenarios" / "logs" / "synthetic-crawler.log", "--json")))
    validated = run(BINARY, "validate", "teaching-two-robots", "--simulator-file", "teaching-two-robots",
                    "--replications", "4", "--horizon", "200", "--json", cwd=tmp_path)
    assert validated.returncode in (0, 1), validated.stderr


def test_a_file_of_that_name_in_the_current_directory_wins(tmp_path):
    teaching = (SOURCE_DIR / "scenarios" / "data" / "teaching-two-robots.yaml").read_text()
    for written in ("paper-example-1", "paper-example-1.yaml"):
        (tmp_path / written).write_text(teaching)
        described = json_of(run(BINARY, "describe", written, "--json", cwd=tmp_path))
        assert described["capacity"] == 4 and len(described["modes"]) == 2, written
        (tmp_path / written).unlink()
    assert json_of(run(BINARY, "describe", "paper-example-1", "--json", cwd=tmp_path))["capacity"] == 5


def test_a_name_neither_here_nor_shipped_is_refused_naming_both(tmp_path):
    done = run(BINARY, "optimize", "paper-example-9", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    message = done.stderr.strip()
    assert "\n" not in message
    assert message.startswith("paper-example-9: no such file in " + str(tmp_path)), message
    assert "no shipped scenario of that name" in message and "crawlq scenarios" in message
    for name in SHIPPED:
        assert name in message
    log = run(BINARY, "fit", "arrivals", "no-such-log", cwd=tmp_path)
    assert log.returncode == 2 and "no shipped log of that name" in log.stderr and "synthetic-crawler" in log.stderr
    # A path names that file and nothing else.
    with_directory = run(BINARY, "describe", "./paper-example-1", cwd=tmp_path)
    assert with_directory.returncode == 2 and "./paper-example-1: cannot open the file" in with_directory.stderr


def test_version_names_the_project_version_and_the_commit_built():
    done = run(BINARY, "--version")
    assert done.returncode == 0 and done.stderr == ""
    line = done.stdout.strip()
    git = ["git", "-C", str(SOURCE_DIR)]
    top = subprocess.run(git + ["rev-parse", "--show-toplevel"], capture_output=True, text=True)
    if top.returncode != 0 or Path(top.stdout.strip()).resolve() != SOURCE_DIR.resolve():
        assert line == f"crawlq {VERSION}"  # built from sources without their own history
        return
    named = re.fullmatch(rf"crawlq {re.escape(VERSION)} \(git ([0-9a-f]{{12}})(, changed)?\)", line)
    assert named, line
    # The commit built: one of this checkout's, HEAD or before it (ctest may run after a later commit).
    assert subprocess.run(git + ["merge-base", "--is-ancestor", named[1], "HEAD"]).returncode == 0, line


def test_every_scenario_the_readme_and_the_tutorial_name_is_shipped():
    """Their commands name shipped scenarios, so that they run from any directory."""
    names = set(run(BINARY, "scenarios", "--names").stdout.split())
    named = set()
    for doc in (SOURCE_DIR / "README.md", SOURCE_DIR / "docs" / "tutorial.md"):
        in_code = False
        for line in doc.read_text().splitlines():
            if line.startswith("```"):
                in_code = not in_code
                continue
            words = line.split("#")[0].split() if in_code else []
            if len(words) < 3 or words[0] not in ("crawlq", "build/app/crawlq"):
                continue
            command = words[2] if words[1] == "fit" else words[1]
            argument = words[3] if words[1] == "fit" and len(words) > 3 else words[2]
            if command in ("reproduce", "scenarios", "lab") or argument.startswith("-") or "." in argument:
                continue
            named.add(argument)
    assert named and named <= names, named - names
    assert {"paper-example-1", "teaching-two-robots", "synthetic-crawler"} <= named


def test_a_program_without_its_shipped_files_says_where_it_looked(tmp_path):
    alone = tmp_path / "bin" / "crawlq"
    alone.parent.mkdir()
    shutil.copy2(BINARY, alone)
    listed = run(alone, "scenarios", cwd=tmp_path)
    assert listed.returncode == 1 and listed.stdout == ""
    assert "no shipped scenarios found" in listed.stderr and "share/crawlq" in listed.stderr
    named = run(alone, "optimize", "paper-example-1", cwd=tmp_path)
    assert named.returncode == 2 and named.stdout == ""
    assert named.stderr.startswith(f"paper-example-1: no such file in {tmp_path}, and no shipped scenarios were found")
    # A real file still works, by its path.
    assert run(alone, "describe", SOURCE_DIR / "scenarios" / "data" / "paper-example-1.yaml").returncode == 0
