// The settings a user moves: the sliders of the changes, the policy as bars of robots by level,
// and the phase-aware table.
import { refresh } from "./results.js";
import { $, body, modes, state, svgNS } from "./state.js";

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

export function buildSliders() {
  $("sliders").innerHTML = "";
  const d = state.described;
  slider("capacity K", "capacity", 1, Math.max(30, d.capacity), 1, d.capacity, (v) => `${v} page${v == 1 ? "" : "s"}`);
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

export function resizeLevels(k) {
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
export function drawPolicy() {
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
    // The robots the bar stands for, inside its top (white on the bar's blue); the pointer passes
    // through to the bar.
    if (w >= 18 && unit >= 16) {
      const count = document.createElementNS(svgNS, "text");
      count.setAttribute("class", "bar-value");
      count.setAttribute("x", level * w + w / 2); count.setAttribute("y", height - bottom - robots * unit + 14);
      count.setAttribute("text-anchor", "middle");
      count.textContent = robots;
      svg.appendChild(count);
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

export function currentPolicy() { return state.table ? { "phase-aware": state.table } : { levels: state.levels }; }
// What the answers on show were asked for, as keys to compare: the model and policy, or the model alone.
export function settingsKey() { return JSON.stringify(body({ policy: currentPolicy() })); }
export function modelKey() { return JSON.stringify(body({})); }

// ---- the phase-aware table ---------------------------------------------------------------------
export function drawTable() {
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
    $("policy-kind").textContent = "the cost shown is this table's";
    refresh();
  }));
  $("policy-kind").textContent = state.table ? "the cost shown is this table's" : "the cost shown is the bars' policy's";
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
