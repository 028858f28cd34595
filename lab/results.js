// The exact solve of the current settings and how it is shown: the measures (named by the
// server's measure list), the level distribution, the gap to the optimum.
import { api } from "./api.js";
import { drawLandscape } from "./landscape_view.js";
import { currentPolicy, settingsKey } from "./policy_view.js";
import { drawTransient, transientFields } from "./transient_view.js";
import { daySolved, rhythmOn } from "./day_view.js";
import { $, bestThresholds, body, state } from "./state.js";

// The measures the solve view shows, by their JSON keys; their names come from the server's measure
// list (GET /api/measures), the one the command line prints.
// Replications of the simulated band: its half-width about a tenth of a page at these sizes.
const BAND_REPLICATIONS = 400;
const MEASURES = ["p_loss", "p_obsolete", "p_served", "p_starvation", "lambda", "mean_active_robots",
  "mean_in_system", "mean_sojourn_served"];
// "P_loss: lost at a full buffer" for a key, once /api/measures has answered.
export const measureLabels = {};
export function measureLabel(key) { return measureLabels[key] ?? key; }
// "pages/time", "time" or "" for a key, from the same list.
export const measureDimensions = {};
// A measure's unit in the words the server gives for the scenario's time unit.
function measureUnit(key) {
  const dimension = measureDimensions[key], described = state.described;
  if (dimension === "pages/time") return `pages ${described.per_time_unit}`;
  if (dimension === "time") return described.time_units;
  return "";
}

// ---- results -------------------------------------------------------------------------------------
export function showSolved() {
  const r = state.solved;
  $("cost").textContent = r.cost.toFixed(4);
  // Under a rhythm every number here is the period's average (the day's view has each piece's).
  $("period-note").textContent = r.rhythm ? `averages over the period of ${r.rhythm.period} ${state.described.time_units}` : "";
  const tbody = $("measures").querySelector("tbody");
  tbody.innerHTML = MEASURES.map((key) => `<tr><td>${measureLabel(key)}</td><td>${Number(r[key]).toPrecision(5)}</td><td class="unit">${measureUnit(key)}</td></tr>`).join("");
  const svg = $("levels"), p = r.level_probabilities;
  const width = svg.clientWidth || 400, height = 160, bottom = 22, above = 24;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  // Each bar's probability above it where there is room; the level below; every value in its title.
  const top = Math.max(...p), w = width / p.length, tall = height - bottom - above;
  svg.innerHTML = p.map((x, i) => `<rect x="${i * w + 1}" width="${Math.max(1, w - 2)}" y="${height - bottom - tall * x / top}" height="${tall * x / top}"><title>level ${i}: ${x.toFixed(4)}</title></rect>` +
    (w >= 14 ? `<text x="${i * w + w / 2}" y="${height - 4}" text-anchor="middle">${i}</text>` : "") +
    (w >= 44 ? `<text class="value" x="${i * w + w / 2}" y="${height - bottom - tall * x / top - 4}" text-anchor="middle">${x.toFixed(3)}</text>` : "")).join("");
  showGap();
}

export function showGap() {
  if (!state.solved || !state.optimum) { $("gap").textContent = ""; return; }
  const best = bestThresholds(state.optimum).cost, gap = state.solved.cost - best;
  const which = rhythmOn() ? "the best threshold policy for the whole period" : "the best threshold policy";
  $("gap").textContent = gap <= 1e-9 * Math.abs(best) ? `(${which})` : `(+${(100 * gap / best).toFixed(2)}% over ${which})`;
}

// The newest request wins: an answer to an older one is dropped.
let generation = 0;

// The simulator's band beside the exact curves: the same start, outage and times, simulated after
// the solve has been drawn (it takes a moment); dropped when the settings have changed since.
async function simulateBand(mine, request) {
  $("transient-band").textContent = "simulating the same transient...";
  try {
    const band = await api("/api/transient-simulation", body({ ...request, replications: BAND_REPLICATIONS }));
    if (mine !== generation) return;
    state.band = band;
    drawTransient();
  } catch (error) {
    if (mine === generation) $("transient-band").textContent = `no simulated band: ${error.message}`;
  }
}
export async function refresh() {
  const mine = ++generation, started = performance.now();
  // Views of other requests (the simulation) drop what they show once the settings differ from theirs.
  document.dispatchEvent(new CustomEvent("crawlq:settings", { detail: settingsKey() }));
  // Until the answer comes, the numbers on show are of the settings before: shown dimmed, as such.
  for (const id of ["results", "transient", "day"]) $(id).classList.add("pending");
  // A solve past two seconds says so, with its time so far, until it answers or another replaces it.
  const ticker = setInterval(() => {
    const seconds = (performance.now() - started) / 1000;
    if (mine === generation && seconds >= 2) $("status").textContent = `solving these settings: ${Math.floor(seconds)} s so far (the numbers shown are dimmed until then)`;
  }, 500);
  try {
    // Under a rhythm the long run is periodic: the day's view takes the place of the transient's
    // and the landscape's, which do not follow a rhythm yet.
    const periodic = rhythmOn();
    const request = periodic ? { policy: currentPolicy() } : { policy: currentPolicy(), ...transientFields() };
    const solved = await api("/api/solve", body(request));
    if (mine !== generation) return;
    state.solved = solved;
    for (const id of ["results", "transient", "day"]) $(id).classList.remove("pending");
    state.band = null;  // the simulated band of older settings is never shown beside these
    showSolved();
    // A lumped clock (every phase exits at one rate) solves far fewer states than the model has.
    const states = solved.lumping ? `${solved.states_solved} states, the clock's phases lumped from ${solved.states}` : `${solved.states} states`;
    const solvedIn = `solved in ${Math.round(performance.now() - started)} ms (${states}, ${solved.method}`;
    $("status").textContent = periodic ? `${solvedIn}; the periodic regime in ${solved.rhythm.periods} periods)` : `${solvedIn})`;
    document.body.dataset.solvedCost = String(solved.cost);
    if (periodic) { daySolved(); return; }
    drawTransient();
    drawLandscape();
    simulateBand(mine, request);
  } catch (error) {
    if (mine === generation) $("status").textContent = error.message;
  } finally {
    clearInterval(ticker);
  }
}
