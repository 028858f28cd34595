"""The lab's JSON API: the command line's JSON for the same input, 400 with its message for bad input,
refusals before any work, and requests side by side."""
import json
import math
import re
import subprocess
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
import yaml

from conftest import BINARY, SCENARIOS, SOURCE_DIR, Lab, cli_json, cli_refusal, without_timing

QUEUE_SCENARIOS = sorted(p for p in SCENARIOS.glob("*.yaml") if not p.name.startswith("refresh-"))


def scenario_json(lab, path):
    """The scenario as the page sends it: the lab's own JSON form of the file."""
    lab_with_file = Lab(path)
    try:
        status, _, text = lab_with_file.get("/api/scenarios")
        assert status == 200
        return json.loads(text)["scenarios"][0]["scenario"]
    finally:
        lab_with_file.stop()


def simulation_messages(lab, body):
    """The /api/simulate stream as (event, data) pairs, and its Content-Type."""
    request = urllib.request.Request(lab.url + "/api/simulate", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    messages, kind = [], None
    with urllib.request.urlopen(request, timeout=120) as response:
        content_type = response.headers["Content-Type"]
        for line in response:
            line = line.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                messages.append((kind, json.loads(line[6:])))
    return content_type, messages


@pytest.mark.parametrize("path", QUEUE_SCENARIOS, ids=lambda p: p.name)
def test_solve_describe_and_optimize_answer_what_the_commands_print(lab, path):
    scenario = scenario_json(lab, path)
    status, solved = lab.post("/api/solve", {"scenario": scenario})
    assert status == 200
    assert without_timing(solved) == without_timing(cli_json("solve", path))
    status, described = lab.post("/api/describe", {"scenario": scenario, "name": str(path)})
    assert status == 200 and described == cli_json("describe", path)
    status, best = lab.post("/api/optimize", {"scenario": scenario})
    assert status == 200 and without_timing(best) == without_timing(cli_json("optimize", path))


def test_the_page_opens_on_the_papers_first_example(lab):
    status, kind, page = lab.get("/")
    assert status == 200 and kind.startswith("text/html") and b"crawlq lab" in page
    for asset, expected in (("/lab.js", "javascript"), ("/lab.css", "css")):
        status, kind, _ = lab.get(asset)
        assert status == 200 and expected in kind
    _, _, text = lab.get("/api/scenarios")
    first = json.loads(text)["scenarios"][0]
    assert first["name"] == "paper-example-1"
    # Its own policy, and the exact cost the command line gives it.
    status, solved = lab.post("/api/solve", {"scenario": first["scenario"]})
    assert solved["cost"] == cli_json("solve", SCENARIOS / "paper-example-1.yaml")["cost"]


def test_a_policy_and_changes_as_the_command_line_takes_them(lab):
    path = SCENARIOS / "paper-example-1.yaml"
    scenario = scenario_json(lab, path)
    status, solved = lab.post("/api/solve", {"scenario": scenario, "policy": {"levels": [4, 4, 3, 1, 1, 1]}})
    assert status == 200
    assert without_timing(solved) == without_timing(cli_json("solve", path, "--levels", "4,4,3,1,1,1"))
    status, swept = lab.post("/api/optimize", {"scenario": scenario, "changes": [["service-scale", 2]]})
    row = cli_json("sweep", path, "--param", "service-scale", "--values", "2")["rows"][0]
    assert status == 200 and swept["best"]["cost"] == row["cost"]


def test_the_landscape_holds_every_ordered_pair_and_its_best(lab):
    scenario = scenario_json(lab, SCENARIOS / "paper-example-1.yaml")
    status, grid = lab.post("/api/landscape", {"scenario": scenario, "thresholds": [-1, 2, 2], "axes": [1, 2]})
    assert status == 200
    values = grid["values"]
    assert values == list(range(-1, 6))
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            assert (grid["cost"][i][j] is None) == (not -1 <= a <= b)
    cost = cli_json("solve", SCENARIOS / "paper-example-1.yaml", "--thresholds", "-1,1,4")["cost"]
    assert grid["cost"][values.index(1)][values.index(4)] == cost
    assert grid["best"] == {"thresholds": [-1, 2, 2], "cost": min(c for row in grid["cost"] for c in row if c is not None)}


BROKEN = [
    ({"service": {"beta": [0.4, 0.6], "S": [[-3, -1], [2, -3]]}}, "service.S row 0"),
    ({"service": {"beta": [0.4, 0.5], "S": [[-3, 1], [2, -3]]}}, "service.beta"),
    ({"capacity": -5}, "capacity"),
]


@pytest.mark.parametrize("replacement,fragment", BROKEN, ids=[b[1] for b in BROKEN])
def test_broken_input_gets_400_and_the_command_lines_message(lab, tmp_path, replacement, fragment):
    scenario = scenario_json(lab, SCENARIOS / "paper-example-1.yaml") | replacement
    written = tmp_path / "broken.json"  # the same scenario as a file, for the command line
    written.write_text(json.dumps(scenario))
    status, answer = lab.post("/api/solve", {"scenario": scenario, "name": str(written)})
    assert status == 400 and fragment in answer["error"]
    assert answer["error"] == cli_refusal("solve", written)


def test_requests_the_api_cannot_take_are_refused(lab):
    scenario = scenario_json(lab, SCENARIOS / "paper-example-1.yaml")
    status, answer = lab.post("/api/solve", None, raw=b"{not json")
    assert status == 400 and "not JSON" in answer["error"]
    status, answer = lab.post("/api/solve", {"policy": {}})
    assert status == 400 and "scenario" in answer["error"]
    status, answer = lab.post("/api/solve", {"scenario": scenario, "policy": {"thresholds": [3, 2, 1]}})
    assert status == 400 and "policy: thresholds[1]" in answer["error"]
    status, answer = lab.post("/api/optimize", {"scenario": scenario, "class": "best"})
    assert status == 400 and "class" in answer["error"] and "--class" not in answer["error"]
    # The request layer's checks word a field as the lab's JSON key, not as a command-line flag.
    status, answer = lab.post("/api/optimize", {"scenario": scenario, "class": "levels", "search": "local"})
    assert status == 400 and '"search": "local"' in answer["error"] and '"class": "levels"' in answer["error"]
    assert "--" not in answer["error"]
    # A body far larger than any scenario is refused before it is read whole.
    status, _ = lab.post("/api/solve", None, raw=b"{" + b" " * (2 << 20) + b"}")
    assert status == 413


def test_a_chain_too_large_for_memory_is_refused_at_once(lab):
    scenario = scenario_json(lab, SCENARIOS / "paper-example-1.yaml") | {"capacity": 60}
    scenario.pop("policy")
    started = time.monotonic()
    status, answer = lab.post("/api/solve", {"scenario": scenario, "policy": {"thresholds": [-1, 2, 2]}, "full_chain": True})
    assert status == 400 and "largest capacity that fits" in answer["error"]
    assert time.monotonic() - started < 5


def assert_same_rows(got_rows, expected_rows):
    """The lab's sensitivity rows are the command line's: the same pairs in the same order, each
    derivative to the solves' digits."""
    key = lambda row: (row["parameter"], row["measure"])  # noqa: E731
    assert [key(row) for row in got_rows] == [key(row) for row in expected_rows]
    for got, want in zip(got_rows, expected_rows):
        assert got["derivative"] == pytest.approx(want["derivative"], rel=1e-9, abs=1e-12), key(got)


def test_sensitivities_answer_on_small_chains_and_are_refused_on_large_ones(lab):
    scenario = scenario_json(lab, SCENARIOS / "paper-example-1.yaml")
    status, answer = lab.post("/api/solve", {"scenario": scenario, "sensitivity": True})
    assert status == 200
    assert_same_rows(answer["sensitivity"], cli_json("solve", SCENARIOS / "paper-example-1.yaml", "--sensitivity")["sensitivity"])
    # Each is a few dozen solves no client can stop: bounded by the chain's states.
    started = time.monotonic()
    status, answer = lab.post("/api/solve", {"scenario": scenario | {"capacity": 15}, "sensitivity": True, "full_chain": True})
    assert status == 400 and '"sensitivity": true' in answer["error"] and "up to 50000 states" in answer["error"]
    assert time.monotonic() - started < 5


def test_a_logs_refits_are_the_command_lines_two_steps_and_bad_logs_are_refused(lab, tmp_path):
    scenario = scenario_json(lab, SCENARIOS / "paper-example-1.yaml")
    log = SOURCE_DIR / "scenarios" / "logs" / "synthetic-crawler.log"
    status, answer = lab.post("/api/log-ensemble", {"scenario": scenario, "bootstrap": 5,
                                                    "log": {"name": "crawl.log", "text": log.read_text()}})
    assert status == 200, answer
    # The same on the command line: fit arrivals --bootstrap, then solve --ensemble.
    subprocess.run([BINARY, "fit", "arrivals", log, "--scenario", SCENARIOS / "paper-example-1.yaml",
                    "--bootstrap", "5", "--out", tmp_path / "fits"], check=True, capture_output=True)
    expected = cli_json("solve", tmp_path / "fits" / "fitted.yaml", "--ensemble", tmp_path / "fits" / "bootstrap")
    assert answer["refits"] == 5 and answer["log"] == "crawl.log" and answer["lines"] == 11428
    for key, spread in expected["ensemble"]["measures"].items():
        for part in ("point", "low", "high", "mean"):
            assert answer["measures"][key][part] == pytest.approx(spread[part], rel=1e-9, abs=1e-15), (key, part)
    for body, words in [({"log": "crawl.log"}, "the lab reads no file"),
                        ({"log": {"name": "a", "text": "1\n2\nnoon\n"}}, "a: line 3"),
                        ({"log": {"name": "a", "text": log.read_text()}, "bootstrap": 1000}, "give 2 to 100 refits"),
                        ({"log": {"name": "a", "text": log.read_text()}, "policy": {"thresholds": [1]}}, "thresholds")]:
        status, refusal = lab.post("/api/log-ensemble", {"scenario": scenario} | body)
        assert status == 400 and words in refusal["error"], refusal


def test_per_rate_sensitivities_are_the_command_lines_and_bounded_alike(lab):
    scenario = scenario_json(lab, SCENARIOS / "paper-example-1.yaml")
    status, answer = lab.post("/api/solve", {"scenario": scenario, "sensitivity_rates": True})
    assert status == 200
    expected = cli_json("solve", SCENARIOS / "paper-example-1.yaml", "--sensitivity-rates")["sensitivity"]
    assert any(row["parameter"] == "service.exit[0]" for row in expected)
    assert_same_rows(answer["sensitivity"], expected)
    status, answer = lab.post("/api/solve", {"scenario": scenario | {"capacity": 15}, "sensitivity_rates": True})
    assert status == 400 and '"sensitivity_rates": true' in answer["error"]


def test_requests_side_by_side_do_not_harm_each_other(lab):
    scenario = scenario_json(lab, SCENARIOS / "paper-example-1.yaml")
    policies = [[3, 3, 3, 1, 1, 1], [4, 4, 3, 1, 1, 1], [2, 2, 2, 2, 1, 1], [4, 3, 2, 1, 1, 1]] * 4
    alone = [lab.post("/api/solve", {"scenario": scenario, "policy": {"levels": p}})[1]["cost"] for p in policies]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(
            lambda p: lab.post("/api/solve", {"scenario": scenario, "policy": {"levels": p}})[1]["cost"], policies))
    assert together == alone


def test_a_port_in_use_and_a_broken_file_are_refused_before_serving(lab, tmp_path):
    import subprocess

    from conftest import BINARY

    port = lab.url.rsplit(":", 1)[1]
    taken = subprocess.run([BINARY, "lab", "--port", port], capture_output=True, text=True, timeout=30)
    assert taken.returncode == 2 and f"--port {port}" in taken.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text((SCENARIOS / "paper-example-1.yaml").read_text().replace("beta: [0.4, 0.6]", "beta: [0.4, 0.5]"))
    refused = subprocess.run([BINARY, "lab", "--port", "0", str(broken)], capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and refused.stderr.strip() == cli_refusal("solve", broken)


def test_the_simulation_streams_a_path_then_narrowing_estimates(lab):
    scenario = scenario_json(lab, SCENARIOS / "paper-example-1.yaml")
    content_type, messages = simulation_messages(lab, {"scenario": scenario, "replications": 6, "seed": 3})
    assert content_type.startswith("text/event-stream")
    assert [k for k, _ in messages] == ["path", "estimates", "estimates", "estimates"]
    path = messages[0][1]["events"]
    assert path and all(a[0] <= b[0] for a, b in zip(path, path[1:]))  # in time order
    assert {e[1] for e in path} >= {"batch", "served", "state"}
    counts = [m["replications"] for _, m in messages[1:]]
    assert counts == [2, 4, 6]
    exact = cli_json("solve", SCENARIOS / "paper-example-1.yaml")["p_loss"]
    last = messages[-1][1]["p_loss"]
    assert abs(last["mean"] - exact) < 5 * last["half_width"]
    status, answer = lab.post("/api/simulate", {"scenario": scenario, "replications": 1})
    assert status == 400 and "replications" in answer["error"]


# The shipped files and a text written here in other YAML forms (block lists, an anchor and its alias,
# quoted text that spells a number, 5.0e-1): the JSON form is what an independent YAML reader makes.
HAND_WRITTEN = """\
# teaching-two-robots with two robots of rate 1 (the second one an alias of the first)
name: "2011"
source: 'typed for tests/lab/test_api.py'
capacity: 4
admission: partial
arrivals:
  kind: independent
  robots:
    - &one
      rate: 1
      batch: [5.0e-1, 0.5]
    - *one
service: {exponential: {rate: 2}}
obsolescence:
  exponential: {mean: 5}
costs: {loss: 5, obsolescence: 10, sojourn: 2, robot: 3, starvation: 20}
policy:
  thresholds:
    - 1
"""


def test_the_scenarios_json_form_is_what_a_yaml_reader_makes_of_the_file(lab):
    _, _, text = lab.get("/api/scenarios")
    offered = json.loads(text)["scenarios"]
    assert len(offered) == 4
    for entry in offered:
        assert entry["scenario"] == yaml.safe_load((SCENARIOS / f"{entry['name']}.yaml").read_text())
    for path in QUEUE_SCENARIOS:
        status, answer = lab.post("/api/scenario-form", {"scenario": path.read_text(), "name": path.name})
        assert status == 200 and answer["scenario"] == yaml.safe_load(path.read_text())
    status, answer = lab.post("/api/scenario-form", {"scenario": HAND_WRITTEN})
    expected = yaml.safe_load(HAND_WRITTEN)
    assert expected["name"] == "2011" and expected["arrivals"]["robots"][1]["batch"] == [0.5, 0.5]
    assert status == 200 and answer["scenario"] == expected


def test_the_landscape_answers_on_the_axes_it_was_given(lab):
    path = SCENARIOS / "paper-example-1.yaml"
    scenario = scenario_json(lab, path)
    for axes in ([1, 2], [2, 0]):
        status, grid = lab.post("/api/landscape", {"scenario": scenario, "thresholds": [-1, 2, 2], "axes": axes})
        assert status == 200 and grid["axes"] == axes
    # Rows vary threshold 3 (axis 2), columns threshold 1 (axis 0): cell (4, -1) is thresholds -1, 2, 4.
    values = grid["values"]
    cost = cli_json("solve", path, "--thresholds", "-1,2,4")["cost"]
    assert grid["cost"][values.index(4)][values.index(-1)] == cost


def test_the_sample_path_keeps_its_books_and_ends_at_the_horizon_asked(lab):
    scenario = scenario_json(lab, SCENARIOS / "paper-example-1.yaml")
    _, messages = simulation_messages(lab, {"scenario": scenario, "replications": 2, "seed": 5, "path_horizon": 400})
    kind, path = messages[0]
    assert kind == "path" and path["horizon"] == 400
    # K = 5, partial admission, thresholds -1, 2, 2: 3 robots at levels 0..2, 1 above. Every event is
    # followed by the state it leaves (a robots' move that brings no page is a state alone).
    capacity, robots = 5, [3, 3, 3, 1, 1, 1]
    level, change, last = 0, None, 0.0
    kinds = {"batch": 0, "served": 0, "expired": 0, "state": 0}
    for event in path["events"]:
        time_, kind = event[0], event[1]
        kinds[kind] += 1
        assert last <= time_ <= 400
        last = time_
        if kind == "state":
            level += change[1] if change else 0
            assert event[2:] == [level, robots[level]]
            change = None
            continue
        assert change is None  # the previous event's state came first
        if kind == "batch":
            pages, accepted = event[2:]
            assert pages >= 1 and accepted == min(pages, capacity - level)
            change = (time_, accepted)
        else:
            # A page in service leaves served, a waiting one (behind it) expires; both after arriving.
            assert level >= (1 if kind == "served" else 2) and 0 < event[2] <= time_
            change = (time_, -1)
    assert change is None
    assert all(kinds.values())
    # About 7 events per unit time here: 400 time units stay under the cap of 20,000 events and run
    # to the horizon's end; 5000 reach the cap first (interface.md), and the path stops there.
    assert len(path["events"]) < 20000 and last > 390
    _, messages = simulation_messages(lab, {"scenario": scenario, "replications": 2, "seed": 5, "path_horizon": 5000})
    path = messages[0][1]
    assert path["horizon"] == 5000 and len(path["events"]) == 20000 and path["events"][-1][0] < 5000


def test_the_estimates_hold_solves_values_and_count_the_runs_events(lab):
    _, _, text = lab.get("/api/scenarios")
    scenarios = {s["name"]: s["scenario"] for s in json.loads(text)["scenarios"]}
    # Every scalar measure against the exact engine, within 5 half-widths (6 replications: 12.9
    # standard errors), on the paper's example.
    scenario = scenarios["paper-example-1"]
    _, messages = simulation_messages(lab, {"scenario": scenario, "replications": 6, "seed": 7})
    _, exact = lab.post("/api/solve", {"scenario": scenario})
    last = messages[-1][1]
    measures = [k for k, v in last.items() if isinstance(v, dict)]
    assert len(measures) == 12
    for key in measures:
        assert abs(last[key]["mean"] - exact[key]) <= 5 * last[key]["half_width"], key
    # teaching-two-robots has one arrival phase: every move of the robots is a batch, at mode r's
    # group rate, and every accepted page leaves once. Each replication runs a tenth of the horizon
    # as warm-up, then the horizon (api/live_simulation_request.cpp), so the count grows by 1.1 horizons a run. Its
    # dispersion index is below 3 (batches of 1 or 2 pages): 8 sd is 8 sqrt(3 x count).
    scenario, horizon = scenarios["teaching-two-robots"], 5000
    _, messages = simulation_messages(lab, {"scenario": scenario, "replications": 6, "seed": 7, "horizon": horizon})
    _, exact = lab.post("/api/solve", {"scenario": scenario})
    _, described = lab.post("/api/describe", {"scenario": scenario})
    rate = sum(q * mode["group_rate"] for q, mode in zip(exact["mode_probabilities"], described["modes"]))
    rate += exact["lambda"] * (exact["p_served"] + exact["p_obsolete"])
    for _, estimate in messages[1:]:
        expected = rate * 1.1 * horizon * estimate["replications"]
        assert abs(estimate["events"] - expected) <= 8 * math.sqrt(3 * expected), (estimate["events"], expected)


def test_the_measures_the_page_names_are_the_command_lines(lab):
    status, kind, text = lab.get("/api/measures")
    assert status == 200 and kind == "application/json"
    measures = json.loads(text)["measures"]
    keys = [m["key"] for m in measures]
    solved = cli_json("solve", SCENARIOS / "paper-example-1.yaml")
    # Every measure of solve --json is listed once, with the words the command line's table prints.
    assert len(keys) == len(set(keys)) and set(keys) <= set(solved)
    assert {"p_loss", "cost", "level_probabilities"} <= set(keys)
    table = subprocess.run([BINARY, "solve", SCENARIOS / "paper-example-1.yaml"], capture_output=True, text=True).stdout
    for m in measures[:12]:
        assert m["description"] in table, m
    # The page asks for no measure the list does not name.
    script = "".join(module.read_text() for module in (SOURCE_DIR / "lab").glob("*.js"))
    for block in ("const MEASURES = [", "const ESTIMATED = ["):
        listed = script[script.index(block) + len(block):].split("]")[0]
        assert set(re.findall(r'"([a-z_]+)"', listed)) <= set(keys), block
