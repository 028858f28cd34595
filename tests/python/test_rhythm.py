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
