"""Transients from Python: the keywords of solve (times, start, outage) as the command line's flags
(--times, --from, --outage) give them, the same numbers, and refusals in the package's words."""
import numpy as np
import pytest

import crawlq
from conftest import PAPER, without_timing


def test_a_transient_from_python_is_the_command_lines(cli):
    got = crawlq.load(PAPER).solve(times=[0.5, 2.0], start="stationary", outage=1.0).to_dict()
    flags = cli.json("solve", PAPER, "--times", "0.5,2", "--from", "stationary", "--outage", "1")
    assert without_timing(got) == without_timing(flags)
    assert [p["t"] for p in got["times"]] == [0.5, 2.0]
    assert got["times"][0]["service_rate"] == 0.0  # the indexer is stopped until t = 1


def test_transient_keywords_are_refused_in_the_packages_words():
    scenario = crawlq.load(PAPER)
    with pytest.raises(crawlq.InputError, match="^start='half': not one of empty, full, stationary and no such file"):
        scenario.solve(times=[1.0], start="half")
    with pytest.raises(crawlq.InputError, match="^times: give the times to report"):
        scenario.solve(outage=2.0)
    with pytest.raises(crawlq.InputError, match="^times: 1 after 3: give the times in increasing order"):
        scenario.solve(times=[3.0, 1.0])
    with pytest.raises(crawlq.InputError, match="^outage: -1"):
        scenario.solve(times=[1.0], outage=-1.0)


def test_a_transient_reads_as_numpy_arrays_over_time():
    r = crawlq.load(PAPER).solve(times=[0.0, 1.0, 4.0], start="full")
    assert list(r.over_time("t")) == [0.0, 1.0, 4.0]
    levels = r.over_time("level_probabilities")
    assert levels.shape == (3, 6)
    assert abs(levels.sum(axis=1) - 1).max() < 1e-9
    assert abs(levels[0, 5] - 1) < 1e-12  # from full
    lost = r.over_time("lost")
    assert lost[0] == 0 and (lost[1:] > lost[:-1]).all()
    with pytest.raises(KeyError, match="'p_los': not a key"):
        r.over_time("p_los")
    with pytest.raises(AttributeError, match="no transient"):
        crawlq.load(PAPER).solve().over_time("t")


def test_a_simulated_transient_reads_as_bands_and_validates():
    scenario = crawlq.load(PAPER)
    r = scenario.simulate(times=[0.0, 1.0, 4.0], start="full", outage=0.5, replications=300, seed=3)
    assert r.replications == 300 and r.outage == 0.5
    mean, half = r.band("mean_in_system")
    assert abs(mean[0] - 5) < 1e-12 and half[0] < 1e-12  # every replication starts with K pages
    assert (half[1:] > 0).all() and mean[2] < mean[1] < mean[0]
    levels, level_half = r.band("level_probabilities")
    assert levels.shape == level_half.shape == (3, 6)
    loss_rate = r.over_time("loss_rate")
    assert np.isnan(loss_rate[0]) and loss_rate[2] >= 0  # no rate over a stretch of no length
    # The same keywords as the command line's flags give the same numbers.
    v = scenario.validate(times=[1.0, 4.0], start="full", outage=0.5, replications=300, seed=3)
    assert v.agrees
    assert {m["t"] for m in v.to_dict()["scenarios"][0]["measures"]} == {1.0, 4.0}
    with pytest.raises(crawlq.InputError, match="^precision: 0.05: a transient runs exactly replications"):
        scenario.simulate(times=[1.0], precision=0.05)
    with pytest.raises(crawlq.InputError, match="^start=.*starts only the exact engine"):
        scenario.simulate(times=[1.0], start=PAPER)


def test_two_transients_compare_on_common_random_numbers():
    r = crawlq.load(PAPER).compare({"thresholds": [-1, 2, 2]}, {"thresholds": [0, 2, 2]}, times=[1.0, 4.0],
                                   outage=1.0, replications=200, seed=5).to_dict()
    assert r["replications"] == 200 and r["outage"] == 1.0
    a, b, d = (r[k]["times"][1]["offered"] for k in ("a", "b", "difference"))
    assert abs(d["mean"] - (b["mean"] - a["mean"])) < 1e-9
    assert d["half_width"] < (a["half_width"] ** 2 + b["half_width"] ** 2) ** 0.5
