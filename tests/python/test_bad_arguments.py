"""Whatever a caller passes, the package answers or raises an exception with a message: wrong types,
NaN, numbers out of range, callables that raise, files that never end, text that is not UTF-8. Never
a crash, an empty message, or a read without bound."""
import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import crawlq
from conftest import PAPER


@pytest.fixture(scope="module")
def paper():
    return crawlq.load(PAPER)


def message_of(raised):
    text = str(raised.value)
    assert text.strip(), f"{type(raised.value).__name__} without a message"
    return text


@pytest.mark.parametrize("threads", [10**9, 1025, -1, 2.5, "4", True, None, math.nan])
def test_threads_outside_0_to_1024_or_not_a_whole_number_are_refused_naming_the_keyword(paper, threads):
    calls = [
        lambda: paper.solve(threads=threads),
        lambda: paper.optimize(threads=threads),
        lambda: paper.simulate(replications=2, horizon=10, threads=threads),
        lambda: paper.validate(replications=2, horizon=10, threads=threads),
        lambda: paper.compare({"thresholds": [-1, 2, 2]}, {"thresholds": [0, 2, 2]}, replications=2, horizon=10,
                              threads=threads),
        lambda: paper.sweep("capacity", [2], threads=threads),
        lambda: crawlq.refresh("refresh-paper-example", threads=threads),
        lambda: crawlq.reproduce(["refresh"], quick=True, threads=threads),
    ]
    for call in calls:
        with pytest.raises(crawlq.InputError) as refused:
            call()
        assert message_of(refused).startswith("threads: ")
        assert "1024" in str(refused.value)


def test_the_bound_on_threads_is_the_command_lines(cli, paper):
    assert crawlq._crawlq.most_threads == 1024
    assert paper.solve(threads=1024).cost == paper.solve(threads=1).cost
    refused = cli.run("solve", PAPER, "--threads", "1025")
    assert refused.returncode == 2 and "--threads" in refused.stderr


@pytest.mark.parametrize("keyword,value", [
    ("horizon", math.nan), ("horizon", math.inf), ("horizon", -1.0), ("warmup", math.nan),
    ("precision", math.nan), ("time_limit", math.nan), ("replications", 1),
])
def test_nan_and_out_of_range_settings_are_refused_naming_the_keyword(paper, keyword, value):
    settings = {"replications": 2, "horizon": 10.0, keyword: value}
    with pytest.raises(crawlq.InputError) as refused:
        paper.simulate(**settings)
    assert message_of(refused)


@pytest.mark.parametrize("call", [
    lambda s: s.solve(thresholds=[math.nan, 2, 2]),
    lambda s: s.solve(levels=[3, 3, math.nan, 1, 1, 1]),
    lambda s: s.solve(cdf=[math.nan]),
    lambda s: s.solve(transforms=[math.nan]),
    lambda s: s.with_("service-scale", math.nan),
    lambda s: s.with_capacity(math.nan),
    lambda s: s.with_costs(loss=math.inf),
    lambda s: s.sweep("capacity", [math.nan]),
], ids=["thresholds", "levels", "cdf", "transforms", "with_", "with_capacity", "with_costs", "sweep"])
def test_nan_in_a_policy_or_a_value_is_refused(paper, call):
    with pytest.raises(crawlq.InputError) as refused:
        call(paper)
    assert message_of(refused)


@pytest.mark.parametrize("call", [
    lambda s: s.solve(thresholds="abc"),
    lambda s: s.solve(thresholds={"a": 1}),
    lambda s: s.solve(levels=[[1, 2], [3, 4]]),
    lambda s: s.solve(policy=42),
    lambda s: s.solve(method=3),
    lambda s: s.optimize(policy_class=None),
    lambda s: s.simulate(replications="ten"),
    lambda s: s.simulate(seed="one"),
    lambda s: s.sweep(3, [1]),
    lambda s: s.sweep("capacity", "2,3"),
    lambda s: s.with_("capacity", "x"),
    lambda s: crawlq.load(12),
    lambda s: crawlq.fit_service(moments=["a", "b", "c"]),
    lambda s: crawlq.fit_service(moments=[1, 2]),
], ids=["thresholds str", "thresholds dict", "levels 2d", "policy int", "method int", "class None",
        "replications str", "seed str", "param int", "values str", "with_ str", "load int", "moments str",
        "two moments"])
def test_a_wrong_type_raises_an_exception_with_a_message(paper, call):
    with pytest.raises((TypeError, ValueError)) as raised:
        call(paper)
    assert message_of(raised)


def test_a_policy_function_that_raises_passes_its_exception_on_and_leaves_the_scenario_usable(paper):
    def broken(level, phase, mode):
        if level == 3:
            raise ZeroDivisionError("level 3")
        return 1

    with pytest.raises(ZeroDivisionError, match="level 3"):
        paper.solve(policy=broken)
    with pytest.raises(ZeroDivisionError):
        paper.with_policy(policy=broken)
    with pytest.raises(crawlq.InputError) as refused:
        paper.solve(policy=lambda level, phase, mode: math.nan)
    assert "returned nan" in message_of(refused)
    with pytest.raises(crawlq.InputError):
        paper.solve(policy=lambda level, phase, mode: None)
    with pytest.raises(TypeError):
        paper.solve(policy=lambda level: 1)  # the wrong arity: Python's own TypeError
    assert paper.solve(policy=lambda level, phase, mode: np.int64(1 if level > 2 else 3)).cost > 0
    assert paper.solve().cost == pytest.approx(63.54, abs=0.01)


def test_a_file_that_never_ends_is_refused_by_the_command_lines_reader():
    # In a child whose memory is capped: a reader without bound ends there, with a MemoryError.
    script = textwrap.dedent("""
        import resource, crawlq
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        try:
            crawlq.load("/dev/zero")
        except crawlq.InputError as e:
            print("refused:", e)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused: /dev/zero: "), done.stdout + done.stderr


def test_messages_are_whole_characters_whatever_the_file_holds(tmp_path, cli):
    # A long value of two-byte characters: the message shortens it between characters.
    path = tmp_path / "accents.yaml"
    path.write_text(PAPER.read_text().replace("capacity: 5", "capacity: " + "\u00e9" * 80))
    with pytest.raises(crawlq.InputError) as refused:
        crawlq.load(path)
    assert "\u00e9" * 20 in message_of(refused) and "(80 characters)" in str(refused.value)
    assert str(refused.value) == cli.refusal("describe", path)
    # Bytes that are no UTF-8 at all (a Latin-1 file): refused with a message, never an empty one.
    latin1 = tmp_path / "latin1.yaml"
    latin1.write_bytes(PAPER.read_bytes().replace(b"capacity: 5", b"capacity: caf\xe9"))
    with pytest.raises(crawlq.InputError) as refused:
        crawlq.load(latin1)
    assert message_of(refused).startswith(str(latin1))
    # A str that holds no text (a lone surrogate, as surrogateescape leaves a stray byte).
    with pytest.raises(crawlq.InputError) as refused:
        crawlq.Scenario.from_yaml(PAPER.read_text().replace("capacity: 5", "capacity: caf\udce9"))
    assert message_of(refused).startswith("<yaml>: character ")


@pytest.mark.parametrize("call, words, not_words", [
    (lambda p: p.optimize("levels", search="local"), ["search='local'", "policy_class='levels'"], ["--search", "--class"]),
    (lambda p: p.optimize(starts=-1), ["starts: -1"], ["--starts"]),
    (lambda p: p.solve(transforms=[-0.5]), ["transforms: -0.5"], ["--lst"]),
    (lambda p: p.optimize("best"), ["policy_class", "unknown class 'best'"], ["--class"]),
    (lambda p: p.sweep("capacity", [2], policy_class="best"), ["policy_class", "unknown class 'best'"], ["--class"]),
    (lambda p: p.sweep("capacity", [0.5]), ["values: "], ["--values"]),
    (lambda p: p.simulate(horizon=-1.0), ["horizon: -1"], ["--horizon"]),
    (lambda p: p.validate(replications=1, precision=0), ["replications: 1"], ["--replications"]),
    (lambda p: p.simulate(time_limit=-2.0), ["time_limit: -2"], ["--time-limit"]),
])
def test_the_request_layer_names_fields_as_python_keywords(paper, call, words, not_words):
    # The same checks as the command line's, worded for the caller: keywords, not flags.
    with pytest.raises(crawlq.InputError) as raised:
        call(paper)
    text = message_of(raised)
    for word in words:
        assert word in text
    for word in not_words:
        assert word not in text


def test_every_method_the_docstring_names_is_one_the_solver_registry_knows(paper):
    # The docstring once named two methods that did not exist: it names crawlq.methods, and each of
    # them either solves the paper's example or refuses it as bad input (qbd takes single arrivals).
    assert crawlq.methods[0] == "auto" and len(set(crawlq.methods)) == len(crawlq.methods) >= 4
    documented = crawlq.Scenario.solve.__doc__
    for method in crawlq.methods:
        assert method in documented
        try:
            assert paper.solve(method=method).cost > 0
        except crawlq.InputError as refused:
            assert "unknown method" not in str(refused)
    with pytest.raises(crawlq.InputError, match="unknown method"):
        paper.solve(method="block-recursive")


@pytest.mark.parametrize("call,message", [
    (lambda: crawlq.fit_arrivals("synthetic-crawler", regimes=9), "regimes=9: give 1 to 8"),
    (lambda: crawlq.fit_arrivals("synthetic-crawler", lags=0), "lags=0: give 1 to 1000"),
    (lambda: crawlq.fit_arrivals("synthetic-crawler", batch_gap=-1.0), "batch_gap=-1: give a time >= 0"),
    (lambda: crawlq.fit_arrivals("synthetic-crawler", method="best"),
     "method='best': the methods are: moments, em"),
    (lambda: crawlq.fit_service(moments=[1, 2, 6], mean=-1.0), "mean=-1: give a time > 0"),
    (lambda: crawlq.refresh("refresh-paper-example", simulate=True, replications=1),
     "replications: 1: need at least 2 for an interval"),
    (lambda: crawlq.refresh("refresh-paper-example", simulate=True, horizon=-2.0),
     "horizon: -2: must be a finite positive time"),
    (lambda: crawlq.reproduce(["tabels"], quick=True), "sections: 'tabels' is not one of "),
], ids=["regimes", "lags", "batch_gap", "method", "mean", "replications", "horizon", "sections"])
def test_the_fits_refresh_and_reproduce_name_the_keyword_not_the_flag(call, message):
    with pytest.raises(crawlq.InputError) as refused:
        call()
    assert message in message_of(refused) and "--" not in message_of(refused), message_of(refused)
