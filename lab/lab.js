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
  table: null,          // robots by level and arrival phase, when the phase-aware table is in use
  filePolicy: null,     // the scenario's own levels
  solved: null,
  optimum: null,        // /api/optimize of the current model
  pending: 0,
};

const $ = (id) => document.getElementById(id);
const svgNS = "http://www.w3.org/2000/svg";
// The measures the solve view shows, by their JSON keys; their names come from the server's measure
// list (GET /api/measures), the one the command line prints.
const MEASURES = ["p_loss", "p_obsolete", "p_served", "p_starvation", "lambda", "mean_active_robots",
  "mean_in_system", "mean_sojourn_served"];
// "P_loss: lost at a full buffer" for a key, once /api/measures has answered.
const measureLabels = {};
function measureLabel(key) { return measureLabels[key] ?? key; }

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
  if (state.table) {
    const lastRow = state.table[state.table.length - 1];
    while (state.table.length < k + 1) state.table.push(lastRow.slice());
    state.table.length = k + 1;
  }
  if (state.described) drawTable();
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

function currentPolicy() { return state.table ? { "phase-aware": state.table } : { levels: state.levels }; }

// ---- the phase-aware table ---------------------------------------------------------------------
function drawTable() {
  const phases = state.described.arrival_phases, n = modes();
  $("phase-table-section").hidden = phases < 2;
  if (phases < 2) return;
  const rows = state.table ?? state.levels.map((r) => Array(phases).fill(r));
  const head = `<tr><th>level</th>${rows[0].map((_, p) => `<th>phase ${p}</th>`).join("")}</tr>`;
  $("phase-table").innerHTML = head + rows.map((row, level) => `<tr><th>${level}</th>${row.map((r, p) =>
    `<td><input type="number" min="1" max="${n}" value="${r}" data-level="${level}" data-phase="${p}" aria-label="robots at level ${level}, phase ${p}"></td>`).join("")}</tr>`).join("");
  $("phase-table").querySelectorAll("input").forEach((input) => input.addEventListener("change", () => {
    const v = Math.min(n, Math.max(1, Math.round(Number(input.value) || 1)));
    input.value = v;
    if (!state.table) state.table = rows.map((row) => row.slice());
    state.table[Number(input.dataset.level)][Number(input.dataset.phase)] = v;
    $("policy-kind").textContent = "solving the table";
    refresh();
  }));
  $("policy-kind").textContent = state.table ? "solving the table" : "solving the bars";
}

function setRobots(level, robots) {
  if (level < 0 || level >= state.levels.length) return;
  robots = Math.min(modes(), Math.max(1, robots));
  if (state.levels[level] === robots) return;
  state.levels[level] = robots;
  state.table = null;
  drawPolicy(); drawTable();
  refresh();
}

// ---- results -------------------------------------------------------------------------------------
function showSolved() {
  const r = state.solved;
  $("cost").textContent = r.cost.toFixed(4);
  const tbody = $("measures").querySelector("tbody");
  tbody.innerHTML = MEASURES.map((key) => `<tr><td>${measureLabel(key)}</td><td>${Number(r[key]).toPrecision(5)}</td></tr>`).join("");
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
    const solved = await api("/api/solve", body({ policy: currentPolicy() }));
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

// ---- the simulation -----------------------------------------------------------------------------
const ESTIMATED = ["p_loss", "p_obsolete", "p_served", "p_starvation", "mean_active_robots", "cost"];

// POST /api/simulate read as server-sent events: onEvent(kind, data) for each message.
async function streamSimulation(request, onEvent, signal) {
  const response = await fetch("/api/simulate", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request), signal,
  });
  if (!response.ok) throw new Error((await response.json()).error);
  const reader = response.body.getReader(), decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const message = buffer.slice(0, end); buffer = buffer.slice(end + 2);
      const kind = /^event: (.*)$/m.exec(message)?.[1], data = /^data: (.*)$/m.exec(message)?.[1];
      if (kind && data) onEvent(kind, JSON.parse(data));
    }
  }
}

const animation = { events: [], next: 0, time: 0, horizon: 1, pages: [], level: 0, robots: 0, lost: 0, expired: 0,
  served: 0, flashes: [], running: false, last: 0, frames: 0 };

function startAnimation(path) {
  Object.assign(animation, { events: path.events, horizon: path.horizon, next: 0, time: 0, pages: [], level: 0,
    robots: 0, lost: 0, expired: 0, served: 0, flashes: [], last: performance.now() });
  if (!animation.running) { animation.running = true; requestAnimationFrame(frame); }
}

function removePage(arrival, fromHead) {
  const pages = animation.pages;
  if (!pages.length) return;
  if (fromHead) { pages.shift(); return; }
  let best = pages.length > 1 ? 1 : 0;
  for (let i = best; i < pages.length; i++) if (Math.abs(pages[i] - arrival) < Math.abs(pages[best] - arrival)) best = i;
  pages.splice(best, 1);
}

function apply(event) {
  const [t, what, a, b] = event;
  if (what === "batch") {
    for (let i = 0; i < b; i++) animation.pages.push(t);
    if (a > b) { animation.lost += a - b; animation.flashes.push({ kind: "lost", count: a - b, at: performance.now() }); }
    animation.flashes.push({ kind: "batch", count: b, at: performance.now() });
  } else if (what === "served") { removePage(t - a, true); animation.served++; }
  else if (what === "expired") { removePage(t - a, false); animation.expired++; animation.flashes.push({ kind: "expired", at: performance.now() }); }
  else if (what === "state") {
    animation.level = a; animation.robots = b;
    while (animation.pages.length > a) animation.pages.pop();  // a page the path's cap cut short
    while (animation.pages.length < a) animation.pages.push(t);
  }
}

function frame(now) {
  const speed = Number($("speed").value) * animation.horizon / 60;  // "normal": the path in a minute
  animation.time += (now - animation.last) / 1000 * speed;
  animation.last = now;
  while (animation.next < animation.events.length && animation.events[animation.next][0] <= animation.time)
    apply(animation.events[animation.next++]);
  if (animation.time > animation.horizon) {  // loop the path
    animation.time = 0; animation.next = 0; animation.pages = []; animation.lost = animation.expired = animation.served = 0;
  }
  draw(now);
  animation.frames++;
  document.body.dataset.frames = String(animation.frames);
  requestAnimationFrame(frame);
}

function draw(now) {
  const canvas = $("animation"), ctx = canvas.getContext("2d"), W = canvas.width, H = canvas.height;
  const n = state.described ? modes() : 1, k = capacity();
  const meanAge = state.described?.obsolescence?.mean ?? Infinity;
  ctx.clearRect(0, 0, W, H);
  ctx.font = "13px system-ui, sans-serif"; ctx.textBaseline = "middle"; ctx.textAlign = "center";
  // Robots.
  for (let r = 0; r < n; r++) {
    const y = 40 + r * ((H - 80) / Math.max(1, n - 1 || 1));
    ctx.beginPath(); ctx.arc(40, n === 1 ? H / 2 : y, 14, 0, 2 * Math.PI);
    ctx.fillStyle = r < animation.robots ? "#0b63c5" : "#d5dbe1"; ctx.fill();
  }
  ctx.fillStyle = "#5b6570"; ctx.fillText(`${animation.robots} on`, 40, H - 12);
  // Buffer slots: the K - 1 waiting places, then the indexer.
  const slots = Math.max(1, k - 1), left = 90, right = W - 110, slot = Math.min(40, (right - left) / slots);
  const waiting = animation.pages.slice(1);
  for (let i = 0; i < slots; i++) {
    const x = right - (i + 1) * slot;
    ctx.strokeStyle = "#aab4bf"; ctx.strokeRect(x + 2, H / 2 - 18, slot - 4, 36);
    if (i < waiting.length) {
      const age = (animation.time - waiting[i]) / meanAge;
      ctx.fillStyle = `hsl(${Math.max(0, 120 - 120 * Math.min(1, age))}, 70%, 45%)`;
      ctx.fillRect(x + 4, H / 2 - 16, slot - 8, 32);
    }
  }
  // The indexer.
  ctx.strokeStyle = "#1b1f24"; ctx.strokeRect(W - 95, H / 2 - 30, 80, 60);
  if (animation.pages.length) { ctx.fillStyle = "#0b63c5"; ctx.fillRect(W - 85, H / 2 - 18, 60, 36); }
  ctx.fillStyle = "#5b6570"; ctx.fillText("indexer", W - 55, H / 2 + 45);
  // Flashes: a batch arriving, pages refused, a page gone stale (half a second each).
  animation.flashes = animation.flashes.filter((f) => now - f.at < 500);
  for (const f of animation.flashes) {
    const t = (now - f.at) / 500;
    if (f.kind === "batch") { ctx.fillStyle = `rgba(11, 99, 197, ${1 - t})`; ctx.fillRect(60 + t * 30, H / 2 - 6, 10, 12); }
    if (f.kind === "lost") { ctx.fillStyle = `rgba(180, 35, 24, ${1 - t})`; ctx.fillText(`${f.count} refused`, left + 60, 48 + 10 * t); }
    if (f.kind === "expired") { ctx.fillStyle = `rgba(91, 101, 112, ${1 - t})`; ctx.fillText("stale", (left + right) / 2, H - 30 - 10 * t); }
  }
  ctx.fillStyle = "#1b1f24"; ctx.textAlign = "left";
  ctx.fillText(`${animation.level} pages   served ${animation.served}   refused ${animation.lost}   stale ${animation.expired}`, left, 20);
  $("clock").textContent = `t = ${animation.time.toFixed(1)} of ${animation.horizon.toFixed(0)}`;
}

function showEstimates(estimates) {
  const exact = state.solved;
  $("estimates").querySelector("tbody").innerHTML = ESTIMATED.map((key) => {
    const label = measureLabel(key);
    const e = estimates[key], x = exact[key], low = e.mean - e.half_width, high = e.mean + e.half_width;
    const span = Math.max(high - low, Math.abs(x - e.mean) * 2, 1e-12) * 1.6, mid = (low + high) / 2;
    const at = (v) => 60 + 120 * (v - mid) / span;
    const inside = low <= x && x <= high;
    return `<tr><td>${label}</td><td>${x.toPrecision(5)}</td><td>${e.mean.toPrecision(5)} ± ${e.half_width.toPrecision(2)}</td>` +
      `<td><svg viewBox="0 0 120 14" aria-label="${inside ? "interval holds the exact value" : "interval misses the exact value"}">` +
      `<line x1="${at(low)}" x2="${at(high)}" y1="7" y2="7" stroke="#5b6570" stroke-width="4"/>` +
      `<line x1="${at(x)}" x2="${at(x)}" y1="1" y2="13" stroke="${inside ? "#1a7f37" : "#b42318"}" stroke-width="2"/></svg></td></tr>`;
  }).join("");
  $("simulate").textContent = `simulate this policy (${estimates.replications} replications, ${(estimates.events / 1e6).toFixed(1)} million events)`;
}

let simulation = null;
async function simulate() {
  if (simulation) simulation.abort();
  simulation = new AbortController();
  const mine = simulation;
  try {
    await streamSimulation(body({ policy: currentPolicy(), replications: 20 }), (kind, data) => {
      if (kind === "path") startAnimation(data);
      else if (kind === "estimates") { state.estimates = data; showEstimates(data); }
      else if (kind === "error") $("status").textContent = data.error;
    }, mine.signal);
  } catch (error) {
    if (error.name !== "AbortError") $("status").textContent = error.message;
  }
}

// ---- classes -----------------------------------------------------------------------------------
// `optimize --class all`: the best of each class, and what each restriction costs over the best of all.
async function compareClasses() {
  $("classes").textContent = "comparing...";
  const all = await api("/api/optimize", body({ class: "all" }));
  $("classes").textContent = "compare the classes";
  $("class-table").querySelector("tbody").innerHTML =
    `<tr><td><strong>class</strong></td><td><strong>best cost</strong></td><td><strong>price of the restriction</strong></td><td></td></tr>` +
    all.rows.map((row) => `<tr><td>${row.class}</td><td>${row.cost.toFixed(4)}</td><td>${row.excess > 0 ? `+${row.excess.toFixed(4)} (${(100 * row.excess / all.optimum).toFixed(1)}%)` : "-"}</td><td>${row.optimality}</td></tr>`).join("");
  return all;
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
  state.table = null;
  buildSliders(); fillAxes(); drawPolicy(); drawTable();
  await refresh();
}

async function start() {
  const { measures } = await api("/api/measures");
  for (const m of measures) measureLabels[m.key] = m.symbol ? `${m.symbol}: ${m.description}` : m.description;
  const { scenarios } = await api("/api/scenarios");
  state.offered = scenarios;
  const choice = $("scenario-choice");
  scenarios.forEach((s, i) => choice.add(new Option(s.name, i)));
  choice.onchange = () => useScenario(scenarios[choice.value].scenario, scenarios[choice.value].name);
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
      await useScenario(scenario, "edited scenario");
    } catch (error) { $("editor-error").textContent = error.message; }
  };
  $("to-file").onclick = () => { state.levels = state.filePolicy.slice(); resizeLevels(capacity()); drawPolicy(); refresh(); };
  $("to-optimum").onclick = async () => {
    const best = await optimum();
    state.levels = levelsOf(best.best.thresholds, capacity()); drawPolicy(); refresh();
  };
  $("reveal").onclick = () => reveal().catch((e) => { $("verdict").textContent = e.message; });
  $("simulate").onclick = () => simulate();
  $("table-from-bars").onclick = () => { state.table = state.levels.map((r) => Array(state.described.arrival_phases).fill(r)); drawTable(); refresh(); };
  $("table-off").onclick = () => { state.table = null; drawTable(); refresh(); };
  $("classes").onclick = () => compareClasses().catch((e) => { $("status").textContent = e.message; });
  window.addEventListener("resize", () => { drawPolicy(); if (state.solved) showSolved(); });
  await useScenario(scenarios[0].scenario, scenarios[0].name);
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
  report.tableApiCost = (await api("/api/solve", body({ policy: { "phase-aware": table } }))).cost;
  // A scenario pasted as YAML with a broken rule: the message names the key and the value.
  $("scenario-text").value = "capacity: 3\narrivals:\n  kind: poisson\n  modes:\n    - {rate: -2, batch: [1]}\nservice: {exponential: {mean: 1}}\n";
  $("apply").click();
  const shown = performance.now() + 5000;
  while (!$("editor-error").textContent && performance.now() < shown) await new Promise((r) => setTimeout(r, 20));
  report.editorError = $("editor-error").textContent;
  const classes = await compareClasses();
  report.classes = classes.rows.map((row) => row.class);
  report.classRows = document.querySelectorAll("#class-table tr").length;
  return report;
}

window.crawlqReady = start();
window.crawlqReady.catch((error) => { $("status").textContent = error.message; });
window.crawlqSelfTest = selfTest;
