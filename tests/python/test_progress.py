"""progress= on solve and simulate: a callable receives each report on the calling thread (the step, the
count of the total, the seconds); True draws the command line's line on stderr and clears it; an
exception the callable raises stops the work and propagates; the numbers never change."""
import pytest

import crawlq
from conftest import SCENARIOS


@pytest.fixture
def scenario():
    return crawlq.load(SCENARIOS / "teaching-two-robots.yaml")


def test_solve_reports_each_step_it_starts(scenario):
    reports = []
    solved = scenario.solve(sojourn=True, times=[1], progress=reports.append)
    # Every step, in order, however quickly they follow each other.
    assert [r["step"] for r in reports] == ["the stationary solve", "the transient", "the sojourn times' laws"]
    assert all(r["seconds"] >= 0 and r["total"] is None for r in reports)
    assert solved.cost == scenario.solve(sojourn=True, times=[1]).cost


def test_simulate_counts_a_fixed_run_up_to_its_total(scenario):
    reports = []
    simulated = scenario.simulate(replications=6, horizon=2000, seed=3, progress=reports.append)
    assert reports[0]["step"] == "replications" and reports[0]["done"] == 0
    assert sorted(r["done"] for r in reports[1:]) == [1, 2, 3, 4, 5, 6]  # each replication, once
    assert all(r["total"] == 6 for r in reports[1:])
    assert simulated.to_dict()["p_loss"] == scenario.simulate(replications=6, horizon=2000, seed=3).to_dict()["p_loss"]


def test_simulate_under_a_precision_has_no_total(scenario):
    reports = []
    scenario.simulate(precision=0.05, horizon=2000, seed=3, progress=reports.append)
    assert reports and all(r["total"] is None for r in reports)
    assert reports[0]["step"] == "replications until the precision"


def test_true_draws_a_line_on_stderr_and_clears_it(scenario, capsys):
    scenario.simulate(replications=4, horizon=2000, progress=True)
    err = capsys.readouterr().err
    assert "crawlq: simulate: replications, 4 of 4 done" in err
    assert err.endswith("\r")  # cleared: the next output starts at the line's beginning


def test_an_exception_in_the_callback_stops_the_work_and_propagates(scenario):
    class Enough(Exception):
        pass

    def stop(report):
        raise Enough(report["step"])

    with pytest.raises(Enough):
        scenario.simulate(replications=400, horizon=20000, progress=stop)


def test_optimize_reports_its_search_stages():
    reports = []
    best = crawlq.load(SCENARIOS / "paper-example-1.yaml").optimize("all", progress=reports.append)
    assert reports[0]["step"] == "the best all policy"
    assert len({r["step"] for r in reports}) >= 3  # the classes' stages, each its own report
    assert best.to_dict()["rows"] == crawlq.load(SCENARIOS / "paper-example-1.yaml").optimize("all").to_dict()["rows"]


def test_anything_else_is_refused_naming_the_keyword(scenario):
    with pytest.raises(crawlq.InputError, match="progress: 'yes'"):
        scenario.solve(progress="yes")
