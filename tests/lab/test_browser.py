"""A real browser (Debian's chromium, headless, through the DevTools protocol) loads the page, moves a
threshold with the keyboard and finds the cost the API gives, reveals the optimum, runs the animated
simulation; no console errors; screenshots kept as test artefacts."""
import json
import re

import pytest

from conftest import ARTEFACTS
from devtools import Browser


@pytest.fixture
def browser():
    opened = Browser()
    yield opened
    opened.close()


def test_the_page_moves_a_threshold_shows_the_apis_cost_and_animates(lab, browser):
    browser.open(lab.url + "/")
    browser.evaluate("window.crawlqReady")
    report = browser.evaluate("window.crawlqSelfTest()")
    assert report["levels"] != [3, 3, 3, 1, 1, 1]          # the bar moved
    assert report["pageCost"] == report["apiCost"]          # the page shows what the API answers
    assert report["shownCost"] == pytest.approx(report["apiCost"], abs=5e-5)
    assert report["pageCost"] != report["startCost"]
    assert report["landscapeCells"] == 28                   # every ordered pair of two thresholds
    # The answer in the bars' terms the students used, the thresholds beside them.
    assert "the best threshold policy, robots by level 3 3 3 1 1 1 (thresholds -1, 2, 2)" in report["verdict"]
    assert report["replications"] == 20
    estimated = report["estimatedCost"]
    assert abs(estimated["mean"] - report["exactCost"]) < 4 * estimated["half_width"]
    assert report["frames"] > 5                              # the animation draws frames
    assert report["tableCost"] == report["tableApiCost"] != report["pageCost"]  # the phase-aware table solved
    # The bars' simulation went with the change: no estimates of other settings beside these.
    assert report["estimatesAfterChange"].startswith("The settings changed"), report["estimatesAfterChange"]
    assert not report["animationRunningAfterChange"]
    # Switched to a scenario of two modes: its message, and nothing left of the last landscape.
    assert report["landscapeNoteAfterSwitch"] == "Two thresholds need three modes or more."
    assert report["landscapeInkAfterSwitch"] is False
    assert report["levelsAfterSwitch"] == 5                  # its K = 4, solved
    assert report["verdictAfterSwitch"] == ""                # the last scenario's verdict went with it
    assert report["classRowsAfterSwitch"] == 0               # and its table of classes
    # How sensitive: eight groups under a header, then six single rates under theirs, each list's
    # first the API's largest elasticity (the page prints it to 3 decimals), each rate in words (no
    # scenario path left showing), gone with the scenario they were computed for.
    assert report["sensitivityRows"] == 16 and report["sensitivityHeadings"] == [0, 9], report["sensitivityNote"]
    first = float(re.search(r"([+-][0-9.]+)%$", report["sensitivityFirst"]).group(1))
    assert abs(first) == pytest.approx(report["sensitivityApiTop"], abs=6e-4)
    first_rate = float(re.search(r"([+-][0-9.]+)%$", report["sensitivityFirstRate"]).group(1))
    assert abs(first_rate) == pytest.approx(report["sensitivityApiTopRate"], abs=6e-4)
    assert report["sensitivityUnnamed"] == 0
    assert report["sensitivityNote"].startswith("Derivatives of these settings by the exact engine")
    assert report["sensitivityRowsAfterSwitch"] == 0
    # How sure, from a log: seven measures under a header, the cost's point and 90% band the API's
    # (printed to 4 digits), the log and its batches said, gone with the scenario.
    assert report["ensembleRows"] == 8, report["ensembleNote"]
    cost = report["ensembleApiCost"]
    label, point, band = report["ensembleCostCells"]
    low, high = (float(x) for x in band.split(" and "))
    assert label.startswith("J") and [float(point), low, high] == pytest.approx([cost["point"], cost["low"], cost["high"]], rel=1e-3)
    assert cost["low"] <= cost["high"] and cost["low"] < cost["high"]
    assert report["ensembleNote"].startswith("made-up.log: 3000 deliveries in ") and "refitted 8 times" in report["ensembleNote"]
    assert report["ensembleRowsAfterSwitch"] == 0
    assert report["sensitivityNoteAfterSwitch"] == "The settings changed: compute again for these."
    assert "rate" in report["editorError"] and "-2" in report["editorError"]  # a pasted file's broken rule
    # Over time: the outage asked for with the solve, both charts drawn with their long-run lines, and
    # the page's count at t = 20 what the API gives for the same request.
    assert report["transientFrom"] == "stationary" and report["transientPoints"] == 61
    assert report["transientCurves"] == 6 and report["transientOutageBands"] == 2
    assert "beyond the long run's rates" in report["transientSummary"]
    assert report["transientPageLost"] == pytest.approx(report["transientApiLost"], rel=1e-9)
    # The simulator's band for the same settings, under the pages' curve and the two counts.
    assert report["bandPolygons"] == 3, report["bandText"]
    assert re.search(r"\(\d+ replications from the same start\)", report["bandText"]), report["bandText"]
    # Replication r draws from its own streams: the same count gives the same numbers. A machine so
    # slow that the lab's time limit cut one of the two runs short is judged by the interval.
    if report["bandApiReplications"] == report["bandReplications"]:
        assert report["bandPageLost"] == report["bandApiLost"]
    else:
        assert abs(report["bandPageLost"] - report["bandApiLost"]) <= 3 * report["bandPageHalfWidth"]
    assert report["classes"][:2] == ["constant", "thresholds"] and report["classRows"] == len(report["classes"]) + 1
    # Every column labelled, every cell a word or a number (the best class says so, not "-").
    assert "how its best was found" in report["classHeader"] and "price of the restriction" in report["classHeader"]
    assert report["classBlankCells"] == 0
    assert report["policyKind"].startswith("the cost shown is")
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    (ARTEFACTS / "self-test.json").write_text(json.dumps(report, indent=2))  # with moveToNumbersMs, for the record
    browser.screenshot(ARTEFACTS / "lab-after-self-test.png")
    browser.evaluate("document.getElementById('simulation').scrollIntoView()")
    browser.screenshot(ARTEFACTS / "lab-simulation.png")
    assert browser.errors() == []


@pytest.mark.parametrize("size", [(1400, 1000), (900, 1300)], ids=["projector", "laptop"])
def test_screenshots_for_the_record(lab, size):
    browser = Browser(*size)
    try:
        browser.open(lab.url + "/")
        browser.evaluate("window.crawlqReady")
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTEFACTS / f"lab-{size[0]}x{size[1]}.png"
        browser.screenshot(shot)
        assert shot.stat().st_size > 10_000
        assert browser.errors() == []
    finally:
        browser.close()


@pytest.fixture
def small_page(lab):
    """The page open and ready at 1024x768, the size of a projector or a small laptop."""
    opened = Browser(1024, 768)
    try:
        opened.open(lab.url + "/")
        opened.evaluate("window.crawlqReady")
        yield opened
    finally:
        opened.close()


# Waits in the page until the cost on show differs from `before` (a solve answered).
WAIT_FOR_SOLVE = """
async function waitForSolve(before) {
  const deadline = performance.now() + 30000;
  while (document.body.dataset.solvedCost === before && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  return document.body.dataset.solvedCost;
}
"""


def test_readable_at_1024x768_with_units_a_reset_and_paced_replications(small_page):
    browser = small_page
    report = browser.evaluate(WAIT_FOR_SOLVE + """(async () => {
      const sizes = () => [...document.querySelectorAll("svg text")].map((t) => parseFloat(getComputedStyle(t).fontSize));
      const r = { smallest: Math.min(...sizes()), texts: sizes().length };
      r.units = [...document.querySelectorAll("#measures td.unit")].map((td) => td.textContent);
      r.editor = document.getElementById("scenario-text").value;
      const projector = document.getElementById("projector");
      projector.checked = true; projector.dispatchEvent(new Event("change"));
      r.smallestProjected = Math.min(...sizes());
      r.bodyProjected = parseFloat(getComputedStyle(document.body).fontSize);
      projector.checked = false; projector.dispatchEvent(new Event("change"));
      // Reset: a slider, a bar and the transient's end changed, then back to the file's.
      r.startCost = document.body.dataset.solvedCost;
      const capacity = document.getElementById("slider-capacity");
      capacity.value = "8"; capacity.dispatchEvent(new Event("input"));
      r.changedCost = await waitForSolve(r.startCost);
      document.getElementById("transient-until").value = "5";
      document.getElementById("replication-pace").value = "500";
      document.getElementById("reset").click();
      r.resetCost = await waitForSolve(r.changedCost);
      r.resetCapacity = capacity.value === undefined ? null : document.getElementById("slider-capacity").value;
      r.resetUntil = document.getElementById("transient-until").value;
      r.resetPace = document.getElementById("replication-pace").value;
      r.resetBars = document.querySelectorAll("#policy rect[data-level]").length;
      // The replications at two a second: the estimates are seen growing, not all at once.
      document.getElementById("replication-pace").value = "500";
      document.getElementById("simulate").click();
      const seen = [];
      let first = null;
      const deadline = performance.now() + 60000;
      while (performance.now() < deadline) {
        const m = document.getElementById("simulate").textContent.match(/\\((\\d+) replications/);
        const shown = m ? Number(m[1]) : 0;
        if (shown && seen[seen.length - 1] !== shown) seen.push(shown);
        if (shown && first === null) first = performance.now();
        if (shown === 20) { r.showingSeconds = (performance.now() - first) / 1000; break; }
        await new Promise((r) => setTimeout(r, 50));
      }
      r.seen = seen;
      return r;
    })()""")
    # Every label of every figure at 14 px or more at 1024x768; 18 px with large text on.
    assert report["texts"] > 20 and report["smallest"] >= 14, report
    assert report["smallestProjected"] >= 18 and report["bodyProjected"] >= 20, report
    # Rates and times carry their unit (the shipped scenarios name none).
    assert "pages per unit time" in report["units"] and "time units" in report["units"], report["units"]
    # The editor shows the file as written, comments and all, not a JSON form of it.
    assert report["editor"].startswith("#") and "\nname: paper-example-1\n" in report["editor"], report["editor"][:300]
    # Reset: the file's capacity, costs and policy, and the controls' first values.
    assert report["changedCost"] != report["startCost"]
    assert report["resetCost"] == report["startCost"]
    assert report["resetCapacity"] == "5" and report["resetBars"] == 6
    assert report["resetUntil"] == "20" and report["resetPace"] == "0"
    # Paced: the count of replications on show went up in steps that could be watched.
    assert report["seen"][-1] == 20, report["seen"]
    assert len(report["seen"]) >= 3 and report["seen"] == sorted(report["seen"]), report["seen"]
    # Ten rounds of two at least half a second apart: 4.5 s at the least, however fast the machine.
    assert report["showingSeconds"] >= 4.4, report
    browser.screenshot(ARTEFACTS / "lab-1024x768-after-reset.png")
    assert browser.errors() == []


def test_a_slow_solve_says_it_is_working_with_its_time(small_page):
    browser = small_page
    report = browser.evaluate(WAIT_FOR_SOLVE + """(async () => {
      // Every solve answered three seconds late, as a large chain would be.
      const original = window.fetch;
      window.fetch = async (...args) => {
        if (String(args[0]).includes("/api/solve")) await new Promise((r) => setTimeout(r, 3000));
        return original(...args);
      };
      const before = document.body.dataset.solvedCost;
      const cost = document.getElementById("slider-costs.loss");
      cost.value = "7"; cost.dispatchEvent(new Event("input"));
      await new Promise((r) => setTimeout(r, 2600));
      const r = { during: document.getElementById("status").textContent,
                  dimmed: document.getElementById("results").classList.contains("pending") };
      await waitForSolve(before);
      r.after = document.getElementById("status").textContent;
      window.fetch = original;
      return r;
    })()""")
    # At least two seconds had passed (a loaded machine may show more).
    shown = re.match(r"solving these settings: (\d+) s so far", report["during"])
    assert shown and int(shown.group(1)) >= 2, report
    assert report["dimmed"]
    assert report["after"].startswith("solved in"), report
    # The paper's clock leaves both phases at 0.2: the status says what was solved.
    assert "22 states, the clock's phases lumped from 126" in report["after"], report
    assert browser.errors() == []


def test_the_day_rhythm_editor_shows_each_pieces_loss_and_best_vector(lab, browser):
    """A rhythm added in the page: the chart's per-piece losses are the API's periodic regime, the best
    vector per piece arrives and is the API's, a bar raised with the keyboard is solved again (its
    piece loses more) and keeps the focus, the views that do not follow a rhythm are set aside and
    come back when it is removed."""
    browser.open(lab.url + "/")
    browser.evaluate("window.crawlqReady")
    report = browser.evaluate("window.crawlqDayTest()")
    assert report["dayOffShown"] is True
    assert report["solvedPeriodic"] is True
    assert report["bars"] == 12 and report["lossPoints"] == 12
    assert report["pageLoss"] == pytest.approx(report["apiLoss"], rel=1e-12)
    assert max(report["pageLoss"]) > 5 * min(report["pageLoss"])   # the afternoon loses more than the night
    assert report["transientDisplay"] == "none" and report["simulationDisplay"] == "none"
    assert report["bestFound"] is True, report["bestText"]
    assert report["byPiece"] == 12 and report["saving"] >= 0
    assert "best single threshold vector" in report["bestText"]
    # The old settings' answer is gone at once, the new one on its way.
    assert report["bestRightAfterMove"].startswith("finding the best threshold vector")
    assert report["movedSolved"] is True and report["movedScale"] == pytest.approx(1.9)
    assert report["movedLoss"] > report["lossBefore"]
    assert report["focusKept"] is True
    assert report["bestAgain"] is True
    assert report["pageBestCost"] == report["apiBestCost"]
    assert report["backToStationary"] is True and report["transientDisplayAfter"] != "none"
    browser.evaluate("document.getElementById('day').scrollIntoView()")
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    browser.screenshot(ARTEFACTS / "lab-day.png")
    assert browser.errors() == []
