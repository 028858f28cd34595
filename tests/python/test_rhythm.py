"""A scenario with a rhythm from Python: solve gives the periodic regime and optimize the per-piece
vectors, the same numbers as the command line's on the same file."""
import crawlq
from conftest import PAPER, without_timing


def day_file(tmp_path, paper_text):
    path = tmp_path / "day.yaml"
    path.write_text(paper_text + "\nrhythm: {period: 12, scales: [0.5, 1.6, 0.9]}\n")
    return str(path)


def test_a_rhythm_from_python_is_the_command_lines(cli, tmp_path):
    with open(PAPER) as f:
        day = day_file(tmp_path, f.read())
    got = crawlq.load(day).solve().to_dict()
    flags = cli.json("solve", day)
    assert without_timing(got) == without_timing(flags)
    assert got["rhythm"]["pieces"] == 3
    assert [p["start"] for p in got["pieces"]] == [0.0, 4.0, 8.0]

    best = crawlq.load(day).optimize().to_dict()
    assert len(best["best"]["by_piece"]) == 3
    assert best["best"]["cost"] <= best["single"]["cost"]
    assert without_timing(best) == without_timing(cli.json("optimize", day))


def test_the_day_simulated_and_swept_from_python_as_the_command_line(cli, tmp_path):
    with open(PAPER) as f:
        day = day_file(tmp_path, f.read())
    scenario = crawlq.load(day)
    simulated = scenario.simulate(seed=3, replications=4, precision=0, horizon=600).to_dict()
    assert len(simulated["pieces"]) == 3 and "half_width" in simulated["pieces"][1]["p_loss"]
    flags = cli.json("simulate", day, "--seed", "3", "--replications", "4", "--precision", "0",
                     "--horizon", "600")
    assert without_timing(simulated) == without_timing(flags)

    swept = scenario.sweep("rhythm-amplitude", [0, 1.5]).to_dict()
    assert [len(row["by_piece"]["pieces"]) for row in swept["rows"]] == [3, 3]
    assert swept["rows"][1]["saving"] >= swept["rows"][0]["saving"] - 1e-12
    assert without_timing(swept) == without_timing(
        cli.json("sweep", day, "--param", "rhythm-amplitude", "--values", "0,1.5"))
