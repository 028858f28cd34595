"""Bad input raises crawlq.InputError (a ValueError) with the command line's message."""
import pytest

import crawlq
from conftest import PAPER

BROKEN = [
    # (what the paper's file has, what the broken copy has, a fragment of the message)
    ("S: [[-3, 1], [2, -3]]", "S: [[-3, -1], [2, -3]]", "service.S row 0"),
    ("beta: [0.4, 0.6]", "beta: [0.4, 0.5]", "service.beta"),
    ("capacity: 5", "capacity: -5", "capacity"),
    ("thresholds: [-1, 2, 2]", "thresholds: [3, 2, 2]", "policy.thresholds[1]"),
    ("Gamma: [[-0.6, 0.4], [0.1, -0.3]]", "Gamma: [[-0.6, 0.4], [0.1]]", "obsolescence.Gamma"),
    ("costs: {loss: 5,", "costs: {loss: 5, speed: 3,", "speed"),
]


@pytest.mark.parametrize("original,broken,fragment", BROKEN, ids=[b[2] for b in BROKEN])
def test_a_broken_file_is_refused_as_by_the_command_line(cli, tmp_path, original, broken, fragment):
    text = PAPER.read_text()
    assert original in text
    path = tmp_path / "broken.yaml"
    path.write_text(text.replace(original, broken))
    with pytest.raises(crawlq.InputError) as refused:
        crawlq.load(path)
    assert isinstance(refused.value, ValueError)
    assert fragment in str(refused.value)
    assert str(refused.value) == cli.refusal("solve", path)


@pytest.mark.parametrize("arguments,flags", [
    ({"thresholds": [3, 2, 1]}, ["--thresholds", "3,2,1"]),
    ({"levels": [3, 3, 3]}, ["--levels", "3,3,3"]),
    ({"levels": [3, 3, 3, 1, 1, 9]}, ["--levels", "3,3,3,1,1,9"]),
])
def test_a_bad_policy_is_refused(cli, arguments, flags):
    with pytest.raises(crawlq.InputError) as refused:
        crawlq.load(PAPER).solve(**arguments)
    # The keyword stands where the command line names its flag; the rest of the message is the same.
    expected = cli.refusal("solve", PAPER, *flags)
    key = next(iter(arguments))
    assert str(refused.value).replace(f"policy: {key}", f"--{key}") == expected


def test_bad_choices_and_settings_name_the_keyword(cli):
    scenario = crawlq.load(PAPER)
    with pytest.raises(crawlq.InputError, match="method"):
        scenario.solve(method="magic")
    with pytest.raises(crawlq.InputError, match="class"):
        scenario.optimize("nonsense")
    with pytest.raises(crawlq.InputError, match="replications"):
        scenario.simulate(replications=1)
    with pytest.raises(crawlq.InputError, match="param"):
        scenario.sweep("speed", [1])
    with pytest.raises(crawlq.InputError, match="service-scale"):
        scenario.with_("service-scale", -1)
    with pytest.raises(crawlq.InputError, match="one of"):
        scenario.solve(thresholds=[-1, 2, 2], levels=[1, 1, 1, 1, 1, 1])
    with pytest.raises(crawlq.InputError, match="cannot open") as refused:
        crawlq.load("/no/such/file.yaml")
    assert str(refused.value) == cli.refusal("describe", "/no/such/file.yaml")


def test_a_chain_too_large_for_memory_is_refused_before_any_work(cli):
    with pytest.raises(crawlq.InputError, match="largest capacity that fits") as refused:
        crawlq.load(PAPER).with_capacity(60).solve(thresholds=[-1, 2, 2], full_chain=True)
    assert "capacity: 60" in str(refused.value)
    # Lumped, the same chain counts its pages only: 2 + 4 x 60 states.
    lumped = crawlq.load(PAPER).with_capacity(60).solve(thresholds=[-1, 2, 2])
    assert lumped.states_solved == 242 and lumped.states > 1e18
