"""The shipped scenarios and logs by name from Python, as on the command line: crawlq.load, refresh
and fit_arrivals take a name from any directory, a file of that name here wins, a name neither here nor
shipped is refused with the command line's message; crawlq.scenarios() and the version are the CLI's."""
import os

import pytest

import crawlq
from conftest import SCENARIOS, SOURCE_DIR, without_timing


def test_load_takes_a_shipped_name_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    by_name = crawlq.load("paper-example-1")
    assert by_name.solve().cost == crawlq.load(SCENARIOS / "paper-example-1.yaml").solve().cost
    assert crawlq.load("teaching-two-robots.yaml").describe().capacity == 4
    (tmp_path / "paper-example-1").write_text((SCENARIOS / "teaching-two-robots.yaml").read_text())
    assert crawlq.load("paper-example-1").describe().capacity == 4  # the file here wins


def test_refresh_and_fit_take_shipped_names(tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)
    assert crawlq.refresh("refresh-paper-example").to_dict() == cli.json(
        "refresh", SCENARIOS / "refresh-paper-example.yaml")
    fitted = crawlq.fit_arrivals("synthetic-crawler")
    assert without_timing(fitted.to_dict()) == without_timing(cli.json(
        "fit", "arrivals", SOURCE_DIR / "scenarios" / "logs" / "synthetic-crawler.log"))


def test_a_name_neither_here_nor_shipped_is_refused_in_the_command_lines_words(tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(crawlq.InputError) as refused:
        crawlq.load("paper-example-9")
    assert str(refused.value) == cli.refusal("describe", "paper-example-9", cwd=tmp_path)


def test_scenarios_and_the_version_are_the_command_lines(cli):
    assert crawlq.scenarios().to_dict() == cli.json("scenarios")
    assert f"crawlq {crawlq.version}\n" == cli.run("--version").stdout
    assert crawlq.__version__ == crawlq.version.split()[0] and crawlq.__version__.count(".") == 2
