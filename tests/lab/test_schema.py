"""The lab reads its requests by the request layer's one list of fields (`crawlq schema`): each field
the list gives the lab is taken at its example without an edit in the server, and each it keeps from
the lab (a thread count, a file to write) is refused naming the field."""
import json
import subprocess
import urllib.request

import pytest

from conftest import BINARY, SCENARIOS

PAPER_TEXT = (SCENARIOS / "paper-example-1.yaml").read_text()


def schema():
    done = subprocess.run([BINARY, "schema", "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def stream(lab, body):
    """The events of /api/simulate, as (kind, data); a short run unless the body says otherwise."""
    body = {"replications": 2, "horizon": 200, "path_horizon": 20, **body}
    request = urllib.request.Request(lab.url + "/api/simulate", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    events, kind = [], None
    with urllib.request.urlopen(request, timeout=120) as response:
        for line in response:
            line = line.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                events.append((kind, json.loads(line[6:])))
    return events


# The kinds the lab serves, and their routes (the request layer's lab_route; the live simulation's is
# /api/simulate, a stream).
ROUTES = {"solve": "/api/solve", "optimize": "/api/optimize", "landscape": "/api/landscape",
          "live-simulation": "/api/simulate", "transient-simulation": "/api/transient-simulation"}
LAB_KINDS = tuple(ROUTES)
FIELDS = [(kind, field["key"]) for kind, listed in schema().items() if kind in LAB_KINDS for field in listed]


def test_the_lab_serves_every_kind_whose_fields_it_takes():
    takes = {kind for kind, listed in schema().items() for field in listed if "lab" in field["takers"]}
    assert takes == set(LAB_KINDS)


@pytest.mark.parametrize("kind,key", FIELDS)
def test_each_field_is_taken_or_refused_as_the_schema_says(lab, kind, key):
    field = next(f for f in schema()[kind] if f["key"] == key)
    body = {"scenario": PAPER_TEXT, "name": "paper", key: field["example"]}
    for required in schema()[kind]:  # the kind's required fields (a transient's times) at their examples
        if required["required"] and required["key"] != key:
            body[required["key"]] = required["example"]
    if field["needs"]:  # a field it means nothing without, at its example too
        needed = next(f for f in schema()[kind] if f["key"] == field["needs"])
        body[needed["key"]] = needed["example"]
    if kind == "live-simulation":  # a stream: its first event shows the request was taken
        if "lab" in field["takers"]:
            events = stream(lab, body)
            assert events[0][0] == "path" and events[-1][0] == "estimates", events[:1]
            return
    status, answer = lab.post(ROUTES[kind], body)
    if "lab" in field["takers"]:
        assert status == 200, answer
    else:
        assert status == 400 and answer["error"].startswith(f"{key}: the lab does not take this field"), answer


@pytest.mark.parametrize("kind", LAB_KINDS)
def test_a_field_the_kind_does_not_have_is_refused_with_the_known_ones(lab, kind):
    status, answer = lab.post(ROUTES[kind], {"scenario": PAPER_TEXT, "sojurn": True})
    assert status == 400, answer
    known = ", ".join(f["key"] for f in schema()[kind] if "lab" in f["takers"])
    assert answer["error"] == f"sojurn: not a field of a {kind} request (known: {known})"
