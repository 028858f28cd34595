"""A solve of more than a million states warns before the work, as the command line does; a small one
says nothing."""
import warnings

import pytest

import crawlq
from conftest import SCENARIOS


def test_a_solve_past_a_million_states_warns_naming_the_states_and_the_memory():
    scenario = crawlq.load(SCENARIOS / "paper-example-1.yaml").with_capacity(18)
    with pytest.warns(UserWarning, match=r"1048574 states, about 0\.\d+ GiB at most: the solve may take a while") as caught:
        solved = scenario.solve(thresholds=[-1, 2, 2], full_chain=True)
    assert solved.states == solved.states_solved == 1048574
    # The warning points at the caller's line, not at the package's inside.
    assert caught[0].filename == __file__


def test_a_small_solve_is_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        crawlq.load(SCENARIOS / "paper-example-1.yaml").solve(thresholds=[-1, 2, 2])
        # The same million states lumped (every clock phase exits at one rate): 74 states, no warning.
        crawlq.load(SCENARIOS / "paper-example-1.yaml").with_capacity(18).solve(thresholds=[-1, 2, 2])
