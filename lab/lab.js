// crawlq lab: the page. Every number comes from the lab's JSON API (the request layer's JSON, as the
// command line prints it); the page only holds the scenario, the changes made to it and the policy.
"use strict";

const state = {
  offered: [],          // [{name, scenario}] from /api/scenarios
  name: "",
  scenario: null,       // the scenario's JSON form
  described: null,      // /api/describe of the scenario as written
  changes: {},          // parameter -> value (sweep's names: capacity, service-scale, costs.loss, ...)
  levels: [],           // robots at levels 0..K
  filePolicy: null,     // the scenario's own levels
  solved: null,
  optimum: null,        // /api/optimize of the current model
  pending: 0,
};

const $ = (id) => document.getElementById(id);
const svgNS = "http://www.w3.org/2000/svg";
const MEASURES = [
  ["p_loss", "P(loss): a batch's page refused"], ["p_obsolete", "P(obsolete): a page goes stale"],
  ["p_served", "P(served)"], ["p_starvation", "P(starvation): the indexer idle"],
  ["lambda", "pages offered a unit of time"], ["mean_active_robots", "robots on, on average"],
  ["mean_in_system", "pages in the system"], ["mean_sojourn_served", "sojourn of a served page"],
];

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || `${path}: status ${response.status}`);
  return answer;
}

function modes() { return state.described.modes.length; }
function capacity() { return state.changes.capacity ?? state.described.capacity; }
function changeList() { return Object.entries(state.changes).map(([k, v]) => [k, v]); }
function body(extra) { return { scenario: state.scenario, name: state.name, changes: changeList(), ...extra }; }

// The thresholds of a level map whose robots never rise with the level, else null.
function thresholdsOf(levels) {
  const n = modes();
  for (let i = 1; i < levels.length; i++) if (levels[i] > levels[i - 1]) return null;
  const t = [];
  for (let r = 1; r < n; r++) {
    let j = -1;
    levels.forEach((robots, level) => { if (robots >= n - r + 1) j = level; });
    t.push(j);
  }
  return t;
}

function levelsOf(thresholds, k) {
  const n = modes(), levels = [];
  for (let i = 0; i <= k; i++) {
    let r = 1;
    while (r < n && i > thresholds[r - 1]) r++;
    levels.push(n - r + 1);
  }
  return levels;
}

// ---- sliders ----------------------------------------------------------------------------------
function slider(label, parameter, min, max, step, value, format) {
  const row = document.createElement("div");
  row.className = "slider";
  const id = `slider-${parameter}`;
  row.innerHTML = `<label for="${id}">${label}</label><input id="${id}" type="range" min="${min}" max="${max}" step="${step}" value="${value}"><output for="${id}"></output>`;
  const input = row.querySelector("input"), output = row.querySelector("output");
  const show = () => { output.textContent = format(Number(input.value)); };
  input.addEventListener("input", () => {
    show();
    const v = Number(input.value);
    state.changes[parameter] = parameter.endsWith("-scale") ? Math.pow(2, v) : v;
    if (parameter === "capacity") resizeLevels(v);
    state.optimum = null;
    refresh();
  });
  show();
  $("sliders").appendChild(row);
}

function buildSliders() {
  $("sliders").innerHTML = "";
  const d = state.described;
  slider("capacity K", "capacity", 1, Math.max(30, d.capacity), 1, d.capacity, (v) => `${v} pages`);
  const scale = (v) => `x ${Math.pow(2, v).toFixed(2)}`;
  slider("service speed", "service-scale", -2, 2, 0.05, 0, scale);
  if (d.obsolescence) slider("obsolescence speed", "obsolescence-scale", -2, 2, 0.05, 0, scale);
  slider("arrival rates", "arrival-scale", -2, 2, 0.05, 0, scale);
  const costs = state.scenario.costs || {};
  for (const key of ["loss", "obsolescence", "sojourn", "robot", "starvation"]) {
    const initial = Number(costs[key] ?? 0);
    const top = Math.max(10, 4 * initial);
    slider(`cost: ${key}`, `costs.${key}`, 0, top, top / 200, initial, (v) => v.toFixed(1));
  }
}

function resizeLevels(k) {
  const last = state.levels[state.levels.length - 1] ?? 1;
  while (state.levels.length < k + 1) state.levels.push(last);
  state.levels.length = k + 1;
}

// ---- the policy as bars -----------------------------------------------------------------------
function drawPolicy() {
  const svg = $("policy"), n = modes(), levels = state.levels;
  const width = svg.clientWidth || 400, height = 170, bottom = 20, top = 8;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.innerHTML = "";
  const w = width / levels.length, unit = (height - bottom - top) / n;
  levels.forEach((robots, level) => {
    const bar = document.createElementNS(svgNS, "rect");
    bar.setAttribute("class", "bar");
    bar.setAttribute("x", level * w + 2);
    bar.setAttribute("width", Math.max(1, w - 4));
    bar.setAttribute("y", height - bottom - robots * unit);
    bar.setAttribute("height", robots * unit);
    bar.setAttribute("tabindex", "0");
    bar.setAttribute("role", "slider");
    bar.setAttribute("aria-label", `robots at level ${level}`);
    bar.setAttribute("aria-valuemin", 1); bar.setAttribute("aria-valuemax", n); bar.setAttribute("aria-valuenow", robots);
    bar.dataset.level = level;
    bar.addEventListener("keydown", (e) => {
      const step = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1 }[e.key];
      if (!step) return;
      e.preventDefault();
      setRobots(level, levels[level] + step);
      document.querySelector(`#policy rect[data-level="${level}"]`)?.focus();
    });
    svg.appendChild(bar);
    if (w >= 14) {
      const label = document.createElementNS(svgNS, "text");
      label.setAttribute("x", level * w + w / 2); label.setAttribute("y", height - 5); label.setAttribute("text-anchor", "middle");
      label.textContent = level;
      svg.appendChild(label);
    }
  });
  const robotsAt = (event) => {
    const box = svg.getBoundingClientRect();
    const level = Math.floor((event.clientX - box.left) / box.width * levels.length);
    const y = (event.clientY - box.top) / box.height * height;
    return [level, Math.round((height - bottom - y) / unit + 0.5)];
  };
  let dragging = false;
  svg.onpointerdown = (e) => { dragging = true; svg.setPointerCapture(e.pointerId); setRobots(...robotsAt(e)); };
  svg.onpointermove = (e) => { if (dragging) setRobots(...robotsAt(e)); };
  svg.onpointerup = () => { dragging = false; };
}

function setRobots(level, robots) {
  if (level < 0 || level >= state.levels.length) return;
  robots = Math.min(modes(), Math.max(1, robots));
  if (state.levels[level] === robots) return;
  state.levels[level] = robots;
  drawPolicy();
  refresh();
}

// ---- results -------------------------------------------------------------------------------------
function showSolved() {
  const r = state.solved;
  $("cost").textContent = r.cost.toFixed(4);
  const tbody = $("measures").querySelector("tbody");
  tbody.innerHTML = MEASURES.map(([key, label]) => `<tr><td>${label}</td><td>${Number(r[key]).toPrecision(5)}</td></tr>`).join("");
  const svg = $("levels"), p = r.level_probabilities;
  const width = svg.clientWidth || 400, height = 140, bottom = 18;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const top = Math.max(...p), w = width / p.length;
  svg.innerHTML = p.map((x, i) => `<rect x="${i * w + 1}" width="${Math.max(1, w - 2)}" y="${height - bottom - (height - bottom - 4) * x / top}" height="${(height - bottom - 4) * x / top}"><title>level ${i}: ${x.toFixed(4)}</title></rect>` +
    (w >= 14 ? `<text x="${i * w + w / 2}" y="${height - 4}" text-anchor="middle">${i}</text>` : "")).join("");
  showGap();
}

function showGap() {
  if (!state.solved || !state.optimum) { $("gap").textContent = ""; return; }
  const best = state.optimum.best.cost, gap = state.solved.cost - best;
  $("gap").textContent = gap <= 1e-9 * Math.abs(best) ? "(the best threshold policy)" : `(+${(100 * gap / best).toFixed(2)}% over the best threshold policy)`;
}

// The newest request wins: an answer to an older one is dropped.
let generation = 0;
async function refresh() {
  const mine = ++generation, started = performance.now();
  try {
    const solved = await api("/api/solve", body({ policy: { levels: state.levels } }));
    if (mine !== generation) return;
    state.solved = solved;
    showSolved();
    $("status").textContent = `solved in ${Math.round(performance.now() - started)} ms (${solved.states} states, ${solved.method})`;
    document.body.dataset.solvedCost = String(solved.cost);
    drawLandscape();
  } catch (error) {
    if (mine === generation) $("status").textContent = error.message;
  }
}

// ---- the landscape ----------------------------------------------------------------------------
function fillAxes() {
  const n = modes();
  for (const [id, pick] of [["axis-a", Math.max(0, n - 3)], ["axis-b", n - 2]]) {
    const select = $(id);
    select.innerHTML = "";
    for (let r = 0; r < n - 1; r++) select.add(new Option(`j${r + 1}`, r, false, r === pick));
    select.onchange = () => { state.landscapeKey = null; drawLandscape(); };
  }
}

async function drawLandscape() {
  const canvas = $("landscape"), ctx = canvas.getContext("2d");
  const n = modes(), thresholds = thresholdsOf(state.levels) ?? (state.optimum ? Array.from(state.optimum.best.thresholds) : null);
  if (n < 3) { $("landscape-note").textContent = "Two thresholds need three modes or more."; return; }
  const a = Number($("axis-a").value), b = Number($("axis-b").value);
  if (a === b) { $("landscape-note").textContent = "Choose two different thresholds."; return; }
  const base = thresholds ?? Array(n - 1).fill(-1);
  const key = JSON.stringify([state.changes, a, b, base.filter((_, i) => i !== a && i !== b), state.scenario]);
  // Calls that overlap share one request; an answer for an older key is not drawn.
  if (state.landscapeKey !== key) {
    state.landscapeKey = key;
    state.landscapeRequest = api("/api/landscape", body({ thresholds: base, axes: [a, b] }));
  }
  let L;
  try {
    L = await state.landscapeRequest;
  } catch (error) { $("landscape-note").textContent = error.message; return; }
  if (state.landscapeKey !== key) return;
  state.landscape = L;
  const size = L.values.length, margin = 28, cell = (canvas.width - margin) / size;
  const costs = L.cost.flat().filter((c) => c !== null), low = Math.min(...costs), high = Math.max(...costs);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  // The thresholds' values along the top (columns) and the left (rows).
  ctx.fillStyle = "#5b6570"; ctx.font = "12px system-ui, sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
  const every = Math.ceil(size / 16);
  L.values.forEach((v, k) => {
    if (k % every) return;
    ctx.fillText(String(v), margin + (k + 0.5) * cell, margin / 2);
    ctx.fillText(String(v), margin / 2, margin + (k + 0.5) * cell);
  });
  ctx.save(); ctx.translate(margin, margin);
  L.cost.forEach((row, i) => row.forEach((c, j) => {
    if (c === null) { ctx.fillStyle = "#eef1f4"; } else {
      const t = Math.pow((c - low) / Math.max(1e-12, high - low), 0.5);
      ctx.fillStyle = `hsl(${220 - 200 * t}, 70%, ${35 + 40 * t}%)`;
    }
    ctx.fillRect(j * cell, i * cell, cell, cell);
  }));
  const mark = (t, color, width) => {
    if (!t) return;
    const i = L.values.indexOf(t[a]), j = L.values.indexOf(t[b]);
    ctx.strokeStyle = color; ctx.lineWidth = width;
    ctx.strokeRect(j * cell + width / 2, i * cell + width / 2, cell - width, cell - width);
  };
  mark(L.best && L.best.thresholds, "#ffffff", 4);
  mark(thresholds, "#000000", 2);
  ctx.restore();
  $("landscape-note").textContent = `rows: j${a + 1} from -1 to ${L.values[size - 1]}; columns: j${b + 1}. White square: the cheapest here (${L.best ? L.best.cost.toFixed(3) : "-"}); black: the current policy${thresholds ? "" : " (not a threshold policy)"}; grey: thresholds out of order.`;
}

// ---- optimum and teaching -------------------------------------------------------------------------
async function optimum() {
  if (!state.optimum) state.optimum = await api("/api/optimize", body({ class: "thresholds" }));
  return state.optimum;
}

async function reveal() {
  const guess = state.solved;
  const best = await optimum();
  const gap = guess.cost - best.best.cost;
  const verdict = $("verdict");
  verdict.className = gap <= 1e-9 * Math.abs(best.best.cost) ? "good" : "bad";
  verdict.textContent = gap <= 1e-9 * Math.abs(best.best.cost)
    ? `Exactly the optimum: thresholds ${best.best.thresholds.join(", ")}, cost ${best.best.cost.toFixed(4)}.`
    : `Your guess costs ${guess.cost.toFixed(4)}; the best threshold policy (${best.best.thresholds.join(", ")}) costs ${best.best.cost.toFixed(4)}: ${(100 * gap / best.best.cost).toFixed(2)}% more.`;
  showGap();
}

// ---- scenarios ---------------------------------------------------------------------------------
async function useScenario(scenario, name) {
  const described = await api("/api/describe", { scenario, name });
  state.scenario = scenario; state.name = name; state.described = described;
  state.changes = {}; state.optimum = null; state.landscapeKey = null;
  state.filePolicy = described.policy ? Array.from(described.policy.levels) : Array(described.capacity + 1).fill(described.modes.length);
  state.levels = state.filePolicy.slice();
  $("scenario-text").value = JSON.stringify(scenario, null, 2);
  $("editor-error").textContent = "";
  buildSliders(); fillAxes(); drawPolicy();
  await refresh();
}

async function start() {
  const { scenarios } = await api("/api/scenarios");
  state.offered = scenarios;
  const choice = $("scenario-choice");
  scenarios.forEach((s, i) => choice.add(new Option(s.name, i)));
  choice.onchange = () => useScenario(scenarios[choice.value].scenario, scenarios[choice.value].name);
  $("edit-toggle").onclick = () => {
    const editor = $("editor"); editor.hidden = !editor.hidden;
    $("edit-toggle").setAttribute("aria-expanded", String(!editor.hidden));
  };
  $("apply").onclick = async () => {
    try {
      const scenario = JSON.parse($("scenario-text").value);
      await useScenario(scenario, "edited scenario");
    } catch (error) { $("editor-error").textContent = error.message; }
  };
  $("to-file").onclick = () => { state.levels = state.filePolicy.slice(); resizeLevels(capacity()); drawPolicy(); refresh(); };
  $("to-optimum").onclick = async () => {
    const best = await optimum();
    state.levels = levelsOf(best.best.thresholds, capacity()); drawPolicy(); refresh();
  };
  $("reveal").onclick = () => reveal().catch((e) => { $("verdict").textContent = e.message; });
  window.addEventListener("resize", () => { drawPolicy(); if (state.solved) showSolved(); });
  await useScenario(scenarios[0].scenario, scenarios[0].name);
  if (new URLSearchParams(location.search).has("selftest")) await selfTest();
}

// ?selftest: what the browser test checks. Moves the last threshold up one level through the bars'
// keyboard, waits for the page to show the new cost, and asks the API itself for that policy's cost.
async function selfTest() {
  const report = { startCost: state.solved.cost };
  const t = thresholdsOf(state.levels);
  const level = t[t.length - 1] + 1;
  const bar = document.querySelector(`#policy rect[data-level="${level}"]`);
  bar.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp", bubbles: true }));
  const moved = state.levels.slice();
  const deadline = performance.now() + 10000;
  while (Number(document.body.dataset.solvedCost) === report.startCost && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  report.levels = moved;
  report.shownCost = Number($("cost").textContent);
  report.pageCost = state.solved.cost;
  report.apiCost = (await api("/api/solve", body({ policy: { levels: moved } }))).cost;
  await drawLandscape();
  report.landscapeCells = state.landscape ? state.landscape.cost.flat().filter((c) => c !== null).length : 0;
  await reveal();
  report.verdict = $("verdict").textContent;
  const out = $("selftest");
  out.textContent = JSON.stringify(report);
  out.hidden = false;
}

start().catch((error) => { $("status").textContent = error.message; });
