"""The lab's JSON API: the command line's JSON for the same input, 400 with its message for bad input,
refusals before any work, and requests side by side."""
import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import SCENARIOS, Lab, cli_json, cli_refusal, without_timing

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
    assert status == 400 and "class" in answer["error"]
    # A body far larger than any scenario is refused before it is read whole.
    status, _ = lab.post("/api/solve", None, raw=b"{" + b" " * (2 << 20) + b"}")
    assert status == 413


def test_a_chain_too_large_for_memory_is_refused_at_once(lab):
    scenario = scenario_json(lab, SCENARIOS / "paper-example-1.yaml") | {"capacity": 60}
    scenario.pop("policy")
    started = time.monotonic()
    status, answer = lab.post("/api/solve", {"scenario": scenario, "policy": {"thresholds": [-1, 2, 2]}})
    assert status == 400 and "largest capacity that fits" in answer["error"]
    assert time.monotonic() - started < 5


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
    import urllib.request

    scenario = scenario_json(lab, SCENARIOS / "paper-example-1.yaml")
    request = urllib.request.Request(lab.url + "/api/simulate", data=json.dumps(
        {"scenario": scenario, "replications": 6, "seed": 3}).encode(), headers={"Content-Type": "application/json"})
    messages, kind = [], None
    with urllib.request.urlopen(request, timeout=120) as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        for line in response:
            line = line.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                messages.append((kind, json.loads(line[6:])))
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
