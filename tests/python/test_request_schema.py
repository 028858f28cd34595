"""One list of fields for every front end. `crawlq schema` prints the request layer's list; the
package's methods take its keywords and `--request` documents its keys, both read by that list. So a
field added there reaches the command line and Python without an edit in either: for every field, each
front end the schema names takes the field's example and answers (the lab's side is in
tests/lab/test_schema.py; that each value arrives in its request, in tests/unit/api)."""
import inspect
import json

import pytest

import crawlq
from conftest import PAPER

# A simulation kept short, unless the field tried is one of these.
QUICK = {"replications": 4, "horizon": 2000.0, "precision": 0}


def schema_of_cli(cli):
    return cli.json("schema")


@pytest.fixture(scope="module")
def schema(cli):
    return schema_of_cli(cli)


def fields(schema, taker):
    return [(kind, field) for kind, listed in schema.items() for field in listed if taker in field["takers"]]


def document(schema, kind, field, name):
    """The field at its example, the kind's required fields, and a short simulation."""
    doc = {f[name]: f["example"] for f in schema[kind] if f["required"]}
    if field["needs"]:  # a field it means nothing without, at its example too
        needed = next(f for f in schema[kind] if f["key"] == field["needs"])
        doc[needed[name]] = needed["example"]
    if kind in ("simulate", "validate", "compare"):
        keys = {f[name] for f in schema[kind]}
        # A transient runs each replication to its last time: a horizon is refused beside times.
        transient = "times" in doc or field["key"] == "times"
        doc.update({k: v for k, v in QUICK.items() if k in keys and not (transient and k == "horizon")})
    doc[field[name]] = field["example"]
    return doc


def test_the_package_and_the_command_line_read_one_list(cli, schema):
    assert crawlq._crawlq.request_schema() == schema
    assert set(schema) == {"solve", "optimize", "simulate", "validate", "sweep", "compare", "landscape",
                           "live-simulation", "transient-simulation"}
    for kind, listed in schema.items():
        for field in listed:
            assert field["help"] and field["type"] and field["takers"], (kind, field)


@pytest.mark.parametrize("kind,key", [(k, f["key"]) for k, f in fields(schema_of_cli(__import__("conftest").Cli()),
                                                                         "command line")])
def test_a_request_document_takes_each_field_the_command_line_takes(cli, schema, tmp_path, kind, key):
    field = next(f for f in schema[kind] if f["key"] == key)
    path = tmp_path / "request.json"
    path.write_text(json.dumps(document(schema, kind, field, "key")))
    done = cli.run(kind, PAPER, "--request", path, "--json", cwd=tmp_path)
    # validate's 1 is an answer: some measure disagrees (as a log replayed beside a model not fitted
    # to it does).
    assert done.returncode in ((0, 1) if kind == "validate" else (0,)), done.stderr
    assert json.loads(done.stdout)
    # The same field as its flag and in the document: refused, naming the flag.
    if field["type"] in ("integer", "number", "string"):
        refused = cli.run(kind, PAPER, "--request", path, field["flag"], str(field["example"]), cwd=tmp_path)
        assert refused.returncode == 2 and field["flag"] in refused.stderr, refused.stderr


@pytest.mark.parametrize("kind,keyword", [(k, f["python"]) for k, f in fields(schema_of_cli(__import__("conftest").Cli()),
                                                                              "python")])
def test_the_package_takes_each_keyword_the_schema_gives_python(schema, tmp_path, monkeypatch, kind, keyword):
    monkeypatch.chdir(tmp_path)  # export_policy writes where it is told
    field = next(f for f in schema[kind] if f["python"] == keyword)
    method = getattr(crawlq.load(PAPER), kind)
    parameter = inspect.signature(method).parameters[keyword]
    default = tuple(field["default"]) if isinstance(field["default"], list) else field["default"]
    if not field["required"]:
        assert parameter.default == default
    assert f"``{keyword}``" in method.__doc__
    keywords = document(schema, kind, field, "python")
    if kind == "sweep":
        assert method(keywords.pop("param"), keywords.pop("values"), **keywords)
    elif kind == "compare":
        assert method(keywords.pop("a"), keywords.pop("b"), **keywords)
    else:
        assert method(**keywords)


def test_a_misspelt_field_is_refused_by_each_front_end_in_its_words(cli, tmp_path):
    with pytest.raises(crawlq.InputError, match=r"^sojurn: not a keyword of solve\(\) \(known: policy, method, "):
        crawlq.load(PAPER).solve(sojurn=True)
    path = tmp_path / "request.json"
    path.write_text('{"sojurn": true}')
    assert cli.refusal("solve", PAPER, "--request", path).startswith(
        f"{path}: sojurn: not a field of a solve request (known: policy, method, threads, sojourn")


def test_a_document_on_stdin_runs_as_its_flags_do(cli):
    import subprocess
    from conftest import BINARY, without_timing
    done = subprocess.run([BINARY, "solve", PAPER, "--request", "-", "--json"], capture_output=True, text=True,
                          input='{"policy": {"levels": [3, 3, 2, 2, 1, 1]}, "sojourn": true, "cdf": [1.5]}')
    assert done.returncode == 0, done.stderr
    flags = cli.json("solve", PAPER, "--levels", "3,3,2,2,1,1", "--sojourn", "--cdf", "1.5")
    assert without_timing(json.loads(done.stdout)) == without_timing(flags)
