"""Every method against the command line's JSON, to the last digit (timings aside)."""
import numpy as np
import pytest

import crawlq
from conftest import PAPER, SCENARIOS, without_timing

SHIPPED = sorted(p for p in SCENARIOS.glob("*.yaml") if not p.name.startswith("refresh-"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_describe_and_solve_equal_the_command_line(cli, path):
    scenario = crawlq.load(path)
    assert scenario.describe().to_dict() == cli.json("describe", path)
    assert without_timing(scenario.solve(sojourn=True).to_dict()) == without_timing(cli.json("solve", path, "--sojourn"))


def test_solve_with_each_policy_form_equals_the_command_line(cli):
    scenario = crawlq.load(PAPER)
    assert without_timing(scenario.solve(levels=[3, 3, 3, 1, 1, 1]).to_dict()) == without_timing(
        cli.json("solve", PAPER, "--levels", "3,3,3,1,1,1"))
    assert without_timing(scenario.solve(thresholds=np.array([0, 1, 4])).to_dict()) == without_timing(
        cli.json("solve", PAPER, "--thresholds", "0,1,4"))
    assert without_timing(scenario.solve(transforms=[0.5, 2], cdf=[1, 3]).to_dict()) == without_timing(
        cli.json("solve", PAPER, "--lst", "0.5,2", "--cdf", "1,3"))


def test_a_phase_aware_table_from_a_numpy_array(cli, tmp_path):
    table = np.array([[1, 3], [1, 3], [2, 3], [1, 1], [1, 1], [1, 1]])
    policy_file = tmp_path / "table.yaml"
    policy_file.write_text("policy:\n  phase-aware: " + str(table.tolist()) + "\n")
    expected = without_timing(cli.json("solve", PAPER, "--policy", policy_file))
    assert without_timing(crawlq.load(PAPER).solve(policy=table).to_dict()) == expected
    assert without_timing(crawlq.load(PAPER).solve(policy=policy_file).to_dict()) == expected


@pytest.mark.parametrize("policy_class", ["thresholds", "levels", "phase-aware"])
def test_optimize_equals_the_command_line(cli, policy_class):
    got = crawlq.load(PAPER).optimize(policy_class)
    assert without_timing(got.to_dict()) == without_timing(cli.json("optimize", PAPER, "--class", policy_class))


def test_simulate_and_validate_equal_the_command_line(cli):
    scenario = crawlq.load(PAPER)
    simulated = scenario.simulate(replications=4, seed=7, horizon=2000, threads=1)
    assert without_timing(simulated.to_dict()) == without_timing(
        cli.json("simulate", PAPER, "--replications", 4, "--seed", 7, "--horizon", 2000))
    validated = scenario.validate(replications=4, seed=3, horizon=3000)
    assert without_timing(validated.to_dict()) == without_timing(
        cli.json("validate", PAPER, "--replications", 4, "--seed", 3, "--horizon", 3000))


def test_simulate_replaying_a_log_equals_the_command_line(cli):
    got = crawlq.load(PAPER).simulate(arrivals_log="synthetic-crawler", replications=3, seed=2,
                                      horizon=20000, warmup=0)
    assert got.to_dict()["arrivals_log"]["log"] == "synthetic-crawler"
    assert without_timing(got.to_dict()) == without_timing(
        cli.json("simulate", PAPER, "--arrivals-log", "synthetic-crawler", "--replications", 3,
                 "--seed", 2, "--horizon", 20000, "--warmup", 0))


def test_validate_of_a_chain_beyond_the_exact_engine_equals_the_command_line(cli, tmp_path):
    # K = 40 with every phase of the two-phase clocks is past the exact engine: shown simulated,
    # counted as such in the summary (not as agreeing), as the command line counts it.
    big = tmp_path / "big.yaml"
    big.write_text(PAPER.read_text().replace("capacity: 5", "capacity: 40", 1))
    validated = crawlq.load(big).validate(replications=4, seed=5, horizon=2000, full_chain=True).to_dict()
    assert validated["summary"] == {"agree": 0, "differ": 0, "simulated_only": 1}
    assert validated["agrees"] is True
    assert without_timing(validated) == without_timing(
        cli.json("validate", big, "--replications", 4, "--seed", 5, "--horizon", 2000, "--full-chain"))
    # Both phases exit at one rate, so the lumped chain of 162 states judges it exactly.
    lumped = crawlq.load(big).validate(replications=4, seed=5, horizon=2000).to_dict()
    assert lumped["summary"] == {"agree": 1, "differ": 0, "simulated_only": 0}
    assert "162 states of" in lumped["scenarios"][0]["lumping"]
    assert without_timing(lumped) == without_timing(
        cli.json("validate", big, "--replications", 4, "--seed", 5, "--horizon", 2000))


def test_sweep_and_changed_copies_equal_the_command_line(cli):
    scenario = crawlq.load(PAPER)
    swept = scenario.sweep("service-scale", [0.5, 2])
    assert without_timing(swept.to_dict()) == without_timing(
        cli.json("sweep", PAPER, "--param", "service-scale", "--values", "0.5,2"))
    # A copy with the parameter changed is the model the sweep solved at that value.
    row = swept.to_dict()["rows"][1]
    best = scenario.with_("service-scale", 2).optimize()
    assert best.best.cost == row["cost"]
    assert best.best.thresholds.tolist() == row["best"]["thresholds"]
    cheaper = scenario.with_costs(robot=1)
    assert cheaper.solve().cost < scenario.solve().cost
    assert scenario.with_capacity(8).solve(thresholds=[-1, 2, 2]).to_dict()["states"] > scenario.solve().to_dict()["states"]


def test_refresh_equals_the_command_line(cli):
    path = SCENARIOS / "refresh-paper-example.yaml"
    assert without_timing(crawlq.refresh(path).to_dict()) == without_timing(cli.json("refresh", path))


def test_a_scenario_from_its_dict_solves_as_the_file(cli):
    scenario = crawlq.load(PAPER)
    again = crawlq.Scenario.from_dict(scenario.to_dict(), name=str(PAPER))
    assert without_timing(again.solve().to_dict()) == without_timing(cli.json("solve", PAPER))
    text = PAPER.read_text()
    assert without_timing(crawlq.Scenario.from_yaml(text, name=str(PAPER)).solve().to_dict()) == without_timing(
        cli.json("solve", PAPER))


def test_reproduce_equals_the_command_line(cli):
    got = crawlq.reproduce(["refresh"], quick=True)
    assert without_timing(got.to_dict()) == without_timing(cli.json("reproduce", "--sections", "refresh", "--quick"))
    assert got.rows


def test_fits_equal_the_command_line(cli, tmp_path):
    import random

    random.seed(4)
    t, lines = 0.0, []
    for _ in range(3000):
        t += random.expovariate(0.1)
        lines += [f"{t:.9f}", f"{t + 1e-7:.9f}"] if random.random() < 0.3 else [f"{t:.9f}"]
    log = tmp_path / "deliveries.log"
    log.write_text("\n".join(lines) + "\n")
    got = crawlq.fit_arrivals(log, scenario=PAPER)
    assert got.to_dict() == cli.json("fit", "arrivals", log, "--robots", 4)
    assert got.scenario.describe().to_dict()["modes"][0]["lag1_correlation"] == pytest.approx(got.fitted.lag_correlations[0], abs=1e-9)
    assert got.scenario.optimize().best.cost > 0
    law = crawlq.fit_service(moments=[49207.0356, 2.0527e11, 2.5773e18], mean=8.2)
    assert law.to_dict() == cli.json("fit", "service", "--moments", "49207.0356,2.0527e11,2.5773e18", "--mean", 8.2)
    assert law.beta[0] == pytest.approx(0.0057, rel=0.02)
    with pytest.raises(crawlq.InputError, match="line 2"):
        bad = tmp_path / "bad.log"
        bad.write_text("5\nthree\n")
        crawlq.fit_arrivals(bad)


def test_a_bootstrap_and_an_ensemble_equal_the_command_line(cli, tmp_path):
    fitted = crawlq.fit_arrivals("synthetic-crawler", bootstrap=12, seed=5)
    assert fitted.to_dict() == cli.json("fit", "arrivals", "synthetic-crawler", "--bootstrap", 12, "--seed", 5)
    assert fitted.bootstrap.standard_errors.mean > 0
    out = tmp_path / "refits"
    cli.run("fit", "arrivals", "synthetic-crawler", "--bootstrap", 3, "--scenario", PAPER, "--out", out)
    assert sorted(p.name for p in (out / "bootstrap").iterdir()) == ["001.yaml", "002.yaml", "003.yaml"]
    point = crawlq.load(out / "fitted.yaml")
    solved = point.solve(ensemble=str(out / "bootstrap"))
    assert without_timing(solved.to_dict()) == without_timing(
        cli.json("solve", out / "fitted.yaml", "--ensemble", out / "bootstrap"))
    assert solved.ensemble.members == 3
    searched = point.optimize(ensemble=str(out / "bootstrap"))
    assert without_timing(searched.to_dict()) == without_timing(
        cli.json("optimize", out / "fitted.yaml", "--ensemble", out / "bootstrap"))
    assert 0 <= searched.ensemble.stability <= 1
