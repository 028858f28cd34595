"""A real browser (Debian's chromium, headless) loads the page, moves a threshold with the keyboard,
and finds the cost the API gives; no console errors; screenshots kept as test artefacts."""
import json
import re
import shutil
import subprocess

import pytest

from conftest import ARTEFACTS

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(*args):
    assert CHROMIUM, "chromium is not installed (apt-get install chromium)"
    return subprocess.run([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                           "--v=0", "--virtual-time-budget=20000", *args], capture_output=True, text=True, timeout=120)


def console_errors(stderr):
    return [line for line in stderr.splitlines() if "CONSOLE" in line and ("Error" in line or "Uncaught" in line)]


def test_the_page_moves_a_threshold_and_shows_the_apis_cost(lab):
    done = chromium("--dump-dom", lab.url + "/?selftest=1")
    found = re.search(r'<pre id="selftest">([^<]*)</pre>', done.stdout)
    assert found, done.stderr[-2000:]
    report = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert report["levels"] != [3, 3, 3, 1, 1, 1]          # the bar moved
    assert report["pageCost"] == report["apiCost"]          # the page shows what the API answers
    assert report["shownCost"] == pytest.approx(report["apiCost"], abs=5e-5)
    assert report["pageCost"] != report["startCost"]
    assert report["landscapeCells"] == 28                   # every ordered pair of two thresholds
    assert "the best threshold policy (-1, 2, 2)" in report["verdict"]
    assert not console_errors(done.stderr)


@pytest.mark.parametrize("size", [(1400, 1000), (900, 1300)], ids=["projector", "laptop"])
def test_screenshots_for_the_record(lab, size):
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTEFACTS / f"lab-{size[0]}x{size[1]}.png"
    done = chromium(f"--window-size={size[0]},{size[1]}", f"--screenshot={shot}", lab.url + "/")
    assert shot.exists() and shot.stat().st_size > 10_000, done.stderr[-2000:]
    assert not console_errors(done.stderr)
