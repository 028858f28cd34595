"""Results as a notebook user reads them: numpy arrays of the right shape and type, intervals."""
import numpy as np
import pytest

import crawlq
from conftest import PAPER


def test_solve_gives_numpy_vectors():
    r = crawlq.load(PAPER).solve(full_chain=True)
    assert r.level_probabilities.dtype == np.float64 and r.level_probabilities.shape == (6,)
    assert r.mode_probabilities.shape == (4,)
    assert r.stationary.dtype == np.float64 and r.stationary.shape == (r.states,)
    assert abs(r.stationary.sum() - 1) < 1e-12
    assert r.policy.levels.dtype == np.int64 and list(r.policy.levels) == [3, 3, 3, 1, 1, 1]
    assert r["p_loss"] == r.p_loss == r.to_dict()["p_loss"]
    assert "p_loss" in repr(r) and "p_loss" in dir(r)


def test_a_lumped_chain_keeps_its_vector_and_says_how_to_get_it():
    # The paper's clock leaves both phases at rate 0.2: the same measures from 22 states of 126.
    lumped, full = crawlq.load(PAPER).solve(), crawlq.load(PAPER).solve(full_chain=True)
    assert (lumped.states, lumped.states_solved, full.states_solved) == (126, 22, 126)
    assert "lumping" not in full and "0.2" in lumped.lumping
    assert lumped.p_loss == pytest.approx(full.p_loss, rel=1e-10)
    with pytest.raises(AttributeError, match=r"full_chain=True"):
        lumped.stationary


def test_simulated_measures_are_intervals():
    s = crawlq.load(PAPER).simulate(replications=3, horizon=500, seed=2)
    assert isinstance(s.p_loss, crawlq.Interval)
    assert s.p_loss.half_width > 0 and s.p_loss.low < s.p_loss.mean < s.p_loss.high
    levels = s.level_probabilities
    assert isinstance(levels, crawlq.IntervalArray) and levels.mean.shape == (6,) and levels.half_width.shape == (6,)
    assert abs(levels.mean.sum() - 1) < 1e-9


def test_elasticities_are_the_sensitivity_rows_largest_first():
    r = crawlq.load(PAPER).solve(sensitivity=True)
    rows = r.elasticities("p_loss")
    json_rows = [x for x in r.to_dict()["sensitivity"] if x["measure"] == "p_loss"]
    assert sorted(rows) == sorted((x["parameter"], x["measure"], x["elasticity"]) for x in json_rows)
    sizes = [abs(e) for _, _, e in rows if e is not None]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] > 0
    assert all(m == "p_loss" for _, m, _ in rows)
    assert {p for p, _, _ in r.elasticities(parameter="service-scale")} == {"service-scale"}
    with pytest.raises(KeyError, match="p_nothing"):
        r.elasticities("p_nothing")
    with pytest.raises(AttributeError, match="sensitivity=True"):
        crawlq.load(PAPER).solve().elasticities()


def test_per_rate_elasticities_come_by_keyword():
    r = crawlq.load(PAPER).solve(sensitivity_rates=True)
    exits = r.elasticities(parameter="service.exit[0]")
    assert len(exits) == 12 and all(p == "service.exit[0]" for p, _, _ in exits)
    assert not any(p.endswith("-scale") for p, _, _ in r.elasticities())


def test_a_logs_refits_in_one_call_around_the_fitted_scenarios_answer():
    paper = crawlq.load(PAPER)
    r = paper.log_ensemble("synthetic-crawler", bootstrap=4, seed=3, thresholds=[-1, 2, 2])
    assert r.refits == 4 and r.seed == 3 and len(r.by_refit) == 4
    point = crawlq.fit_arrivals("synthetic-crawler", scenario=paper).scenario.solve(thresholds=[-1, 2, 2])
    for key in ("cost", "p_loss", "mean_sojourn_served"):
        spread = r.measures[key]
        assert spread["point"] == pytest.approx(point[key], rel=1e-9)
        assert spread["min"] <= spread["low"] <= spread["high"] <= spread["max"]
        assert spread["low"] < spread["high"]  # the refits differ
    with pytest.raises(crawlq.InputError, match="bootstrap=1: give 2 to 100 refits"):
        paper.log_ensemble("synthetic-crawler", bootstrap=1)


def test_results_are_read_only_and_to_dict_is_a_copy():
    r = crawlq.load(PAPER).solve()
    d = r.to_dict()
    d["cost"] = 0
    assert r.cost != 0
    try:
        r.cost = 1
    except AttributeError:
        pass
    else:
        raise AssertionError("a result took an assignment")


def test_sweep_rows_are_flat():
    rows = crawlq.load(PAPER).sweep("capacity", [3, 5]).to_rows()
    assert [row["value"] for row in rows] == [3, 5]
    assert all(isinstance(row["cost"], float) for row in rows)


def test_the_stubs_name_every_function_of_the_extension():
    import ast
    from pathlib import Path

    stub = ast.parse((Path(crawlq.__file__).parent / "_crawlq.pyi").read_text())
    stubbed = {node.name for node in stub.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    stubbed |= {node.target.id for node in stub.body if isinstance(node, ast.AnnAssign)}
    assert stubbed == {name for name in dir(crawlq._crawlq) if not name.startswith("_")}


def test_every_public_name_and_method_teaches_through_help():
    for name in crawlq.__all__:
        item = getattr(crawlq, name)
        if callable(item):
            assert item.__doc__, name
    for method in ("solve", "optimize", "simulate", "validate", "compare", "sweep", "describe", "with_", "with_capacity",
                   "with_costs", "with_policy", "from_dict", "from_yaml", "to_dict"):
        assert getattr(crawlq.Scenario, method).__doc__, method


def test_a_results_repr_shows_the_policy_it_found():
    best = crawlq.load(PAPER).optimize().best
    shown = repr(best)
    assert "thresholds                   [-1, 2, 2]" in shown
    assert "levels                       [3, 3, 3, 1, 1, 1]" in shown
    assert "also:" not in shown  # nothing short is hidden
    assert "<td>[-1, 2, 2]</td>" in best._repr_html_()


def test_a_stiff_chains_quantiles_come_by_krylov_steps_and_say_so(tmp_path):
    # A service phase at 10^7 beside one at 0.5: uniformisation would take 2 x 10^7 products.
    stiff = tmp_path / "stiff.yaml"
    stiff.write_text("capacity: 3\narrivals: {kind: poisson, modes: [{rate: 1}]}\n"
                     "service: {beta: [0.5, 0.5], S: [[-1e7, 0], [0, -0.5]]}\n")
    r = crawlq.load(stiff).solve(sojourn=True, cdf=[1.0])
    assert r.sojourn_method == "krylov"
    served = r.sojourn["served"]
    assert served["median"] < served["p90"] < served["p99"]
    assert r.cdf[0]["served"] == pytest.approx(0.445593, abs=1e-6)
    assert crawlq.load(PAPER).solve(sojourn=True).sojourn_method == "uniformisation"
