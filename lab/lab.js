// crawlq lab: the page. Every number comes from the lab's JSON API (the request layer's JSON, as the
// command line prints it); the page only holds the scenario, the changes made to it and the policy.
// This module starts the page and holds the actions that span views (the optimum, the classes,
// the choice of scenario); the others are imported.
import { api } from "./api.js";
import { drawLandscape, fillAxes } from "./landscape_view.js";
import { buildSliders, currentPolicy, drawPolicy, drawTable, modelKey, resizeLevels, settingsKey } from "./policy_view.js";
import { measureDimensions, measureLabels, refresh, showGap, showSolved } from "./results.js";
import { isSingleRate, MEASURES, showSensitivity } from "./sensitivity_view.js";
import { clearLogEnsemble, showLogEnsemble } from "./ensemble_view.js";
import { simulate } from "./simulation_view.js";
import { drawTransient, transientFields } from "./transient_view.js";
import { drawDay, wireDay } from "./day_view.js";
import { $, bestThresholds, body, capacity, levelsOf, modes, state, thresholdsOf } from "./state.js";

// ---- optimum and teaching -------------------------------------------------------------------------
export async function optimum() {
  if (!state.optimum) state.optimum = await api("/api/optimize", body({ class: "thresholds" }));
  return state.optimum;
}

// The settings the verdict on show judged: it goes once they change.
let revealedSettings = null;
document.addEventListener("crawlq:settings", (event) => {
  if (revealedSettings !== null && event.detail !== revealedSettings) {
    revealedSettings = null;
    $("verdict").textContent = ""; $("verdict").className = "";
  }
});

async function reveal() {
  const guess = state.solved;
  revealedSettings = settingsKey();
  const best = bestThresholds(await optimum());
  const gap = guess.cost - best.cost;
  const verdict = $("verdict");
  verdict.className = gap <= 1e-9 * Math.abs(best.cost) ? "good" : "bad";
  // In the bars' terms first (robots at levels 0..K, as the students set them), the thresholds after.
  const bars = `robots by level ${best.levels.join(" ")} (thresholds ${best.thresholds.join(", ")})`;
  const which = state.rhythm ? "the best threshold policy for the whole period" : "the best threshold policy";
  verdict.textContent = gap <= 1e-9 * Math.abs(best.cost)
    ? `Exactly the optimum: ${bars}, cost ${best.cost.toFixed(4)}.`
    : `Your bars cost ${guess.cost.toFixed(4)}; ${which}, ${bars}, costs ${best.cost.toFixed(4)}: yours cost ${(100 * gap / best.cost).toFixed(2)}% more.`;
  showGap();
}

// ---- classes -----------------------------------------------------------------------------------
// `optimize --class all`: the best of each class, and what each restriction costs over the best of all.
// The model (scenario and changes) the table on show compared: it goes once the model changes.
let comparedModel = null;
document.addEventListener("crawlq:settings", () => {
  if (comparedModel !== null && modelKey() !== comparedModel) {
    comparedModel = null;
    $("class-table").querySelector("tbody").innerHTML = "";
  }
});

async function compareClasses() {
  $("classes").textContent = "comparing...";
  comparedModel = modelKey();
  const all = await api("/api/optimize", body({ class: "all" }));
  if (modelKey() !== comparedModel) { $("classes").textContent = "compare the classes"; return all; }
  $("classes").textContent = "compare the classes";
  $("class-table").querySelector("tbody").innerHTML =
    `<tr><td><strong>class</strong></td><td><strong>best cost</strong></td><td><strong>price of the restriction</strong></td><td><strong>how its best was found</strong></td></tr>` +
    all.rows.map((row) => `<tr><td>${row.class}</td><td>${row.cost.toFixed(4)}</td><td>${row.excess > 0 ? `+${row.excess.toFixed(4)} (${(100 * row.excess / all.optimum).toFixed(1)}% of the best of all)` : "none: the best of all"}</td><td>${row.optimality}</td></tr>`).join("");
  return all;
}

// ---- scenarios ---------------------------------------------------------------------------------
// `text`: the scenario as written (a file's YAML, or what the editor applied); the editor shows it.
async function useScenario(scenario, name, text) {
  const described = await api("/api/describe", { scenario, name });
  state.scenario = scenario; state.name = name; state.described = described;
  state.changes = {}; state.optimum = null; state.landscapeKey = null;
  state.rhythm = described.rhythm ? { period: described.rhythm.period, scales: Array.from(described.rhythm.scales) } : null;
  state.filePolicy = described.policy ? Array.from(described.policy.levels) : Array(described.capacity + 1).fill(described.modes.length);
  state.levels = state.filePolicy.slice();
  for (const label of document.querySelectorAll(".time-unit")) label.textContent = described.time_units;
  state.text = text ?? JSON.stringify(scenario, null, 2);
  $("scenario-text").value = state.text;
  $("editor-error").textContent = "";
  state.table = null;
  buildSliders(); fillAxes(); drawPolicy(); drawTable(); drawDay();
  await refresh();
}

// A control back to what the page was loaded with.
function resetControl(control) {
  if (control.tagName === "SELECT") {
    const initial = [...control.options].findIndex((option) => option.defaultSelected);
    control.selectedIndex = Math.max(0, initial);
  } else control.value = control.defaultValue;
}

async function start() {
  const { measures } = await api("/api/measures");
  for (const m of measures) {
    measureLabels[m.key] = m.symbol ? `${m.symbol}: ${m.description}` : m.description;
    measureDimensions[m.key] = m.dimension;
  }
  const { scenarios } = await api("/api/scenarios");
  state.offered = scenarios;
  const choice = $("scenario-choice");
  scenarios.forEach((s, i) => choice.add(new Option(s.name, i)));
  choice.onchange = () => useScenario(scenarios[choice.value].scenario, scenarios[choice.value].name, scenarios[choice.value].text);
  $("edit-toggle").onclick = () => {
    const editor = $("editor"); editor.hidden = !editor.hidden;
    $("edit-toggle").setAttribute("aria-expanded", String(!editor.hidden));
  };
  // The editor takes YAML or JSON, as a file would: the server reads the text (errors name the line and
  // column, or the key and the value) and gives back its JSON form.
  $("apply").onclick = async () => {
    try {
      const text = $("scenario-text").value;
      const { scenario } = await api("/api/scenario-form", { scenario: text, name: "edited scenario" });
      await useScenario(scenario, "edited scenario", text);
    } catch (error) { $("editor-error").textContent = error.message; }
  };
  $("reset").onclick = () => {
    for (const id of ["transient-from", "transient-outage", "transient-until", "replication-pace"]) resetControl($(id));
    useScenario(state.scenario, state.name, state.text);
  };
  $("projector").onchange = () => {
    document.documentElement.classList.toggle("projector", $("projector").checked);
    window.dispatchEvent(new Event("resize"));
    state.landscapeKey = null;  // drawn again with its labels at the new size
    drawLandscape();
  };
  $("to-file").onclick = () => { state.levels = state.filePolicy.slice(); resizeLevels(capacity()); drawPolicy(); refresh(); };
  $("to-optimum").onclick = async () => {
    const best = bestThresholds(await optimum());
    state.levels = levelsOf(best.thresholds, capacity()); drawPolicy(); refresh();
  };
  $("reveal").onclick = () => reveal().catch((e) => { $("verdict").textContent = e.message; });
  $("simulate").onclick = () => simulate();
  $("table-from-bars").onclick = () => { state.table = state.levels.map((r) => Array(state.described.arrival_phases).fill(r)); drawTable(); refresh(); };
  $("table-off").onclick = () => { state.table = null; drawTable(); refresh(); };
  $("classes").onclick = () => compareClasses().catch((e) => { $("status").textContent = e.message; });
  $("sensitivity").onclick = () => showSensitivity();
  $("ensemble").onclick = () => showLogEnsemble();
  $("ensemble-log").onchange = $("ensemble-refits").onchange = () => clearLogEnsemble();
  for (const id of ["transient-from", "transient-outage", "transient-until"]) $(id).onchange = () => refresh();
  wireDay();
  window.addEventListener("resize", () => { drawPolicy(); drawDay(); if (state.solved) { showSolved(); drawTransient(); } });
  await useScenario(scenarios[0].scenario, scenarios[0].name, scenarios[0].text);
}

// What the browser test runs (tests/lab/test_browser.py, through the DevTools protocol): moves the last
// threshold up one level through the bars' keyboard, waits for the page to show the new cost, asks the
// API itself for that policy's cost, draws the landscape, reveals the optimum, and simulates.
async function selfTest() {
  const report = { startCost: state.solved.cost };
  const t = thresholdsOf(state.levels);
  const level = t[t.length - 1] + 1;
  const bar = document.querySelector(`#policy rect[data-level="${level}"]`);
  const pressed = performance.now();
  bar.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp", bubbles: true }));
  const moved = state.levels.slice();
  const deadline = performance.now() + 10000;
  while (Number(document.body.dataset.solvedCost) === report.startCost && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 1));
  report.moveToNumbersMs = performance.now() - pressed;
  report.levels = moved;
  report.shownCost = Number($("cost").textContent);
  report.pageCost = state.solved.cost;
  report.apiCost = (await api("/api/solve", body({ policy: { levels: moved } }))).cost;
  await drawLandscape();
  report.landscapeCells = state.landscape ? state.landscape.cost.flat().filter((c) => c !== null).length : 0;
  await reveal();
  report.verdict = $("verdict").textContent;
  await simulate();
  report.replications = state.estimates.replications;
  report.estimatedCost = state.estimates.cost;
  report.exactCost = state.solved.cost;
  const framesBefore = Number(document.body.dataset.frames || 0);
  await new Promise((r) => setTimeout(r, 500));
  report.frames = Number(document.body.dataset.frames || 0) - framesBefore;
  // The phase-aware table: its first cell of phase 1 edited, the cost the API gives that table.
  $("table-from-bars").click();
  const cell = document.querySelector('#phase-table input[data-level="0"][data-phase="1"]');
  cell.value = String(modes() === Number(cell.value) ? 1 : modes());
  cell.dispatchEvent(new Event("change"));
  const table = state.table.map((row) => row.slice());
  const before = state.solved.cost;
  const until = performance.now() + 10000;
  while (state.solved.cost === before && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
  report.tableCost = state.solved.cost;
  // The simulation of the bars is not shown beside the table's numbers.
  report.estimatesAfterChange = $("estimates").querySelector("tbody").textContent;
  report.animationRunningAfterChange = $("clock").textContent !== "";
  report.tableApiCost = (await api("/api/solve", body({ policy: { "phase-aware": table } }))).cost;
  // A scenario pasted as YAML with a broken rule: the message names the key and the value.
  $("scenario-text").value = "capacity: 3\narrivals:\n  kind: poisson\n  modes:\n    - {rate: -2, batch: [1]}\nservice: {exponential: {mean: 1}}\n";
  $("apply").click();
  const shown = performance.now() + 5000;
  while (!$("editor-error").textContent && performance.now() < shown) await new Promise((r) => setTimeout(r, 20));
  report.editorError = $("editor-error").textContent;
  // Over time: a 2-unit outage from the long run; the page asks for it with the solve, and draws it.
  $("transient-from").value = "stationary";
  $("transient-outage").value = "2";
  $("transient-outage").dispatchEvent(new Event("change"));
  const redrawn = performance.now() + 10000;
  while (state.solved.outage !== 2 && performance.now() < redrawn) await new Promise((r) => setTimeout(r, 20));
  report.transientFrom = state.solved.from;
  report.transientPoints = state.solved.times.length;
  report.transientCurves = document.querySelectorAll("#transient polyline").length;
  report.transientOutageBands = document.querySelectorAll("#transient rect.outage").length;
  report.transientSummary = $("transient-summary").textContent;
  report.transientApiLost = (await api("/api/solve", body({ policy: currentPolicy(), times: [20], from: "stationary", outage: 2 }))).times[0].lost;
  report.transientPageLost = state.solved.times[state.solved.times.length - 1].lost;
  // The simulated band of the same settings: drawn under the curves, the API's numbers.
  const banded = performance.now() + 15000;
  while (!state.band && performance.now() < banded) await new Promise((r) => setTimeout(r, 20));
  report.bandPolygons = document.querySelectorAll("#transient polygon.band").length;
  report.bandText = $("transient-band").textContent;
  report.bandPageLost = state.band?.times.at(-1).lost.mean;
  report.bandPageHalfWidth = state.band?.times.at(-1).lost.half_width;
  report.bandReplications = state.band?.replications;
  // The same request again, for as many replications as the band got (the lab stops a slow run at
  // its time limit with those finished).
  const again = await api("/api/transient-simulation", body({ policy: currentPolicy(), ...transientFields(), replications: Math.max(2, state.band?.replications ?? 2) }));
  report.bandApiLost = again.times.at(-1).lost.mean;
  report.bandApiReplications = again.replications;
  const classes = await compareClasses();
  report.classes = classes.rows.map((row) => row.class);
  report.classRows = document.querySelectorAll("#class-table tr").length;
  report.classHeader = document.querySelector("#class-table tr").textContent;
  report.classBlankCells = [...document.querySelectorAll("#class-table td")].filter((td) => ["", "-"].includes(td.textContent.trim())).length;
  report.policyKind = $("policy-kind").textContent;
  // How sensitive: the page's first row is the API's largest elasticity of the measures it lists.
  await showSensitivity();
  const tableRows = [...document.querySelectorAll("#sensitivity-table tr")];
  const headings = tableRows.map((tr, i) => (tr.classList.contains("heading") ? i : -1)).filter((i) => i >= 0);
  report.sensitivityRows = tableRows.length;
  report.sensitivityHeadings = headings;
  report.sensitivityFirst = tableRows[1]?.textContent ?? "";
  report.sensitivityFirstRate = tableRows[headings[1] + 1]?.textContent ?? "";
  report.sensitivityUnnamed = [...document.querySelectorAll("#sensitivity-table td:first-child")].filter((td) => /[\[\]]/.test(td.textContent)).length;
  const exact = await api("/api/solve", body({ policy: currentPolicy(), sensitivity: true, sensitivity_rates: true }));
  const listed = (single) => exact.sensitivity.filter((row) => MEASURES.has(row.measure) && row.elasticity !== null && isSingleRate(row.parameter) === single);
  report.sensitivityApiTop = Math.max(...listed(false).map((row) => Math.abs(row.elasticity)));
  report.sensitivityApiTopRate = Math.max(...listed(true).map((row) => Math.abs(row.elasticity)));
  report.sensitivityNote = $("sensitivity-note").textContent;
  // How sure, from a log: a made-up log of 3,000 deliveries in batches, fitted and refitted; the
  // page's point and interval of the cost are the API's for the same request.
  let seed = 7, clock = 0;
  const uniform = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) + 0.5) / 2147483648;
  const lines = [];
  while (lines.length < 3000) {
    clock += -Math.log(uniform()) * 40;
    const pages = 1 + Math.floor(uniform() * 3);
    for (let p = 0; p < pages; ++p) lines.push((clock + p * 1e-3).toFixed(4));
  }
  const log = new File([lines.join("\n") + "\n"], "made-up.log", { type: "text/plain" });
  $("ensemble-refits").value = "8";
  await showLogEnsemble(log);
  report.ensembleRows = document.querySelectorAll("#ensemble-table tr").length;
  report.ensembleCostCells = [...(document.querySelectorAll("#ensemble-table tr")[1]?.cells ?? [])].map((td) => td.textContent);
  report.ensembleNote = $("ensemble-note").textContent;
  const sure = await api("/api/log-ensemble", body({ policy: currentPolicy(), log: { name: "made-up.log", text: await log.text() }, bootstrap: 8 }));
  report.ensembleApiCost = sure.measures.cost;
  // A scenario of two modes has no plane of two thresholds: the last landscape goes with it.
  const choice = $("scenario-choice"), two = state.offered.findIndex((s) => s.name === "teaching-two-robots");
  if (two >= 0) {
    choice.value = String(two);
    choice.dispatchEvent(new Event("change"));
    const switched = performance.now() + 10000;
    while ((state.name !== "teaching-two-robots" || $("results").classList.contains("pending")) && performance.now() < switched)
      await new Promise((r) => setTimeout(r, 20));
    report.levelsAfterSwitch = state.solved.level_probabilities.length;
    report.verdictAfterSwitch = $("verdict").textContent;
    report.classRowsAfterSwitch = document.querySelectorAll("#class-table tr").length;
    report.sensitivityRowsAfterSwitch = document.querySelectorAll("#sensitivity-table tr").length;
    report.sensitivityNoteAfterSwitch = $("sensitivity-note").textContent;
    report.ensembleRowsAfterSwitch = document.querySelectorAll("#ensemble-table tr").length;
    await drawLandscape();
    const canvas = $("landscape");
    report.landscapeNoteAfterSwitch = $("landscape-note").textContent;
    report.landscapeInkAfterSwitch = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data.some((v) => v !== 0);
  }
  return report;
}

window.crawlqReady = start();
window.crawlqReady.catch((error) => { $("status").textContent = error.message; });
window.crawlqSelfTest = selfTest;

// What the browser test runs for a day (tests/lab/test_browser.py): on a scenario of two modes, a
// rhythm added, the page's per-piece losses against the API's, the best vector per piece, one bar
// raised with the keyboard, and the rhythm removed again.
async function dayTest() {
  const until = async (done, ms = 15000) => {
    const deadline = performance.now() + ms;
    while (!done() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return done();
  };
  const report = {};
  const choice = $("scenario-choice"), two = state.offered.findIndex((s) => s.name === "teaching-two-robots");
  choice.value = String(two);
  choice.dispatchEvent(new Event("change"));
  await until(() => state.name === "teaching-two-robots" && !$("results").classList.contains("pending"));
  report.dayOffShown = !$("day-off").hidden;
  $("day-add").click();
  report.solvedPeriodic = await until(() => state.solved?.pieces?.length === 12 && !$("day").classList.contains("pending"));
  report.lossPoints = document.querySelectorAll("#day-chart circle.loss").length;
  report.bars = document.querySelectorAll("#day-chart rect.scale-bar").length;
  report.pageLoss = state.solved.pieces.map((p) => p.p_loss);
  report.apiLoss = (await api("/api/solve", body({ policy: currentPolicy() }))).pieces.map((p) => p.p_loss);
  report.transientDisplay = getComputedStyle($("transient")).display;
  report.simulationDisplay = getComputedStyle($("simulation")).display;
  report.bestFound = await until(() => $("day-best").textContent.startsWith("Following the clock"), 30000);
  report.bestText = $("day-best").textContent;
  report.byPiece = state.optimum?.best?.by_piece?.length;
  report.saving = state.optimum?.saving;
  // The eighth bar (the afternoon, 1.6) up three steps of the keyboard.
  const bar = document.querySelector('#day-chart rect[data-piece="7"]');
  for (let i = 0; i < 3; i++) document.querySelector('#day-chart rect[data-piece="7"]').dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp", bubbles: true }));
  report.bestRightAfterMove = $("day-best").textContent;
  report.movedSolved = await until(() => Math.abs((state.solved.pieces?.[7]?.scale ?? 0) - 1.9) < 1e-9 && !$("day").classList.contains("pending"));
  report.movedScale = state.solved.pieces[7].scale;
  report.movedLoss = state.solved.pieces[7].p_loss;
  report.lossBefore = report.pageLoss[7];
  report.focusKept = document.activeElement?.dataset?.piece === "7";
  report.barStillThere = Boolean(bar);
  report.bestAgain = await until(() => $("day-best").textContent.startsWith("Following the clock"), 30000);
  report.apiBestCost = (await api("/api/optimize", body({ class: "thresholds" }))).best.cost;
  report.pageBestCost = state.optimum?.best?.cost;
  $("day-remove").click();
  report.backToStationary = await until(() => state.solved && !state.solved.pieces && !$("results").classList.contains("pending"));
  report.transientDisplayAfter = getComputedStyle($("transient")).display;
  return report;
}
window.crawlqDayTest = dayTest;
