"""The lab reads its requests by the request layer's one list of fields (`crawlq schema`): each field
the list gives the lab is taken at its example without an edit in the server, and each it keeps from
the lab (a thread count, a file to write) is refused naming the field."""
import json
import subprocess

import pytest

from conftest import BINARY, SCENARIOS

PAPER_TEXT = (SCENARIOS / "paper-example-1.yaml").read_text()


def schema():
    done = subprocess.run([BINARY, "schema", "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# The kinds the lab serves as routes of the same name.
LAB_KINDS = ("solve", "optimize", "landscape")
FIELDS = [(kind, field["key"]) for kind, listed in schema().items() if kind in LAB_KINDS for field in listed]


def test_the_lab_serves_every_kind_whose_fields_it_takes():
    takes = {kind for kind, listed in schema().items() for field in listed if "lab" in field["takers"]}
    assert takes == set(LAB_KINDS)


@pytest.mark.parametrize("kind,key", FIELDS)
def test_each_field_is_taken_or_refused_as_the_schema_says(lab, kind, key):
    field = next(f for f in schema()[kind] if f["key"] == key)
    status, answer = lab.post(f"/api/{kind}", {"scenario": PAPER_TEXT, "name": "paper", key: field["example"]})
    if "lab" in field["takers"]:
        assert status == 200, answer
    else:
        assert status == 400 and answer["error"].startswith(f"{key}: the lab does not take this field"), answer


@pytest.mark.parametrize("kind", LAB_KINDS)
def test_a_field_the_kind_does_not_have_is_refused_with_the_known_ones(lab, kind):
    status, answer = lab.post(f"/api/{kind}", {"scenario": PAPER_TEXT, "sojurn": True})
    assert status == 400, answer
    known = ", ".join(f["key"] for f in schema()[kind] if "lab" in f["takers"])
    assert answer["error"] == f"sojurn: not a field of a {kind} request (known: {known})"
