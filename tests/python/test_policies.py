"""Policies from Python: level maps and tables as lists or numpy arrays, functions, comparisons."""
import numpy as np
import pytest

import crawlq
from conftest import PAPER, without_timing


def test_a_function_of_the_level_is_the_level_map():
    scenario = crawlq.load(PAPER)
    calls = []

    def paper_optimum(level, arrival_phase, mode):
        calls.append((level, arrival_phase, mode))
        return 3 if level <= 2 else 1

    got = without_timing(scenario.solve(policy=paper_optimum).to_dict())
    assert got == without_timing(scenario.solve(levels=[3, 3, 3, 1, 1, 1]).to_dict())
    # Once per level, arrival phase and mode: 6 x 2 x 4 a tabulation.
    assert sorted(set(calls)) == [(l, p, m) for l in range(6) for p in range(2) for m in range(1, 5)]


def test_a_function_of_the_arrival_phase_is_a_phase_aware_table():
    scenario = crawlq.load(PAPER)
    table = np.array([[2, 3], [2, 3], [1, 3], [1, 1], [1, 1], [1, 1]])
    by_phase = scenario.solve(policy=lambda level, phase, mode: int(table[level, phase]))
    assert without_timing(by_phase.to_dict()) == without_timing(scenario.solve(policy=table).to_dict())
    assert by_phase.policy.kind == "phase-aware"


def test_a_function_of_the_mode_is_a_memory_table():
    scenario = crawlq.load(PAPER)
    # Keep the robots in force until the buffer passes 3 pages, then 1; back to 3 when it empties.
    def sticky(level, phase, mode):
        return 3 if level == 0 else (1 if level > 3 else mode)

    got = scenario.solve(policy=sticky)
    memory = [[3, 3, 3, 3]] + [[1, 2, 3, 4]] * 3 + [[1, 1, 1, 1]] * 2
    assert without_timing(got.to_dict()) == without_timing(scenario.solve(policy={"memory": memory}).to_dict())


def test_functions_that_no_form_holds_are_refused():
    scenario = crawlq.load(PAPER)
    with pytest.raises(crawlq.InputError, match="both the arrival phase and the mode"):
        scenario.solve(policy=lambda level, phase, mode: 1 + (phase + mode) % 4)
    with pytest.raises(crawlq.InputError, match=r"returned 7"):
        scenario.solve(policy=lambda level, phase, mode: 7)
    with pytest.raises(crawlq.InputError, match=r"returned 2.5"):
        scenario.solve(policy=lambda level, phase, mode: 2.5)


def test_compare_on_common_random_numbers_equals_the_command_line(cli):
    scenario = crawlq.load(PAPER)
    got = scenario.compare({"thresholds": [-1, 2, 2]}, {"levels": [4, 4, 3, 1, 1, 1]}, replications=4, seed=5,
                           horizon=3000)
    expected = cli.json("simulate", PAPER, "--thresholds", "-1,2,2", "--compare", "levels=4,4,3,1,1,1",
                        "--replications", 4, "--seed", 5, "--horizon", 3000)
    assert without_timing(got.to_dict()) == without_timing(expected)
    # Common random numbers: the difference is known better than two independent runs know it.
    assert got.difference.cost.half_width < got.independent_cost_half_width


def test_a_policy_outside_the_threshold_class_simulates_and_validates():
    scenario = crawlq.load(PAPER)
    table = np.array([[2, 3], [2, 3], [1, 3], [1, 1], [1, 1], [1, 1]])
    validated = scenario.validate(policy=table, replications=6, horizon=20000, seed=11)
    assert validated.scenarios[0].exact_engine
    assert validated.agrees


def test_every_key_of_a_policy_section_is_taken_from_a_dict():
    scenario = crawlq.load(PAPER)
    states = scenario.solve(thresholds=[-1, 2, 2]).to_dict()["states"]
    sections = {
        "thresholds": [-1, 2, 3],
        "levels": [3, 1, 2, 2, 1, 1],
        "hysteresis": {"high": 3, "low": 1, "switch_off": 4, "switch_on": 1},
        "phase-aware": [[3, 3], [3, 2], [2, 2], [2, 1], [1, 1], [1, 1]],
        "memory": [[4, 4, 3, 3], [4, 3, 3, 2], [2, 2, 2, 2], [2, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 2]],
        "table": [1 + (s * 7 + 3) % 4 for s in range(states)],
    }
    # A form added to the section needs an example here, and every example must solve.
    assert set(crawlq._crawlq.policy_keys) == set(sections)
    # A level map's JSON has no kind: its levels say it.
    kinds = {key: scenario.solve(policy={key: value}).to_dict()["policy"].get("kind", "levels")
             for key, value in sections.items()}
    assert kinds == {"thresholds": "levels", "levels": "levels", "hysteresis": "hysteresis",
                     "phase-aware": "phase-aware", "memory": "memory", "table": "table"}
    with pytest.raises(crawlq.InputError, match="give exactly one of thresholds, levels"):
        scenario.solve(policy={"thresholds": [-1, 2, 3], "levels": [3, 1, 2, 2, 1, 1]})
