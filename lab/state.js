// What the page holds: the scenario, the changes made to it and the policy, and small helpers over
// them. Every number shown comes from the server.

export const state = {
  offered: [],          // [{name, scenario}] from /api/scenarios
  name: "",
  scenario: null,       // the scenario's JSON form
  described: null,      // /api/describe of the scenario as written
  changes: {},          // parameter -> value (sweep's names: capacity, service-scale, costs.loss, ...)
  levels: [],           // robots at levels 0..K
  table: null,          // robots by level and arrival phase, when the phase-aware table is in use
  filePolicy: null,     // the scenario's own levels
  solved: null,
  band: null,           // /api/transient-simulation of the settings solved, once it has answered
  optimum: null,        // /api/optimize of the current model
  rhythm: null,         // {period, scales}: the arrivals follow the clock (the file's, or as edited)
  pending: 0,
};

export const $ = (id) => document.getElementById(id);
export const svgNS = "http://www.w3.org/2000/svg";
export function modes() { return state.described.modes.length; }
export function capacity() { return state.changes.capacity ?? state.described.capacity; }
function changeList() { return Object.entries(state.changes).map(([k, v]) => [k, v]); }
// The scenario with the day as the page has it: the file's rhythm, one edited, or none.
function scenarioNow() {
  const { rhythm, ...rest } = state.scenario;
  return state.rhythm ? { ...rest, rhythm: state.rhythm } : rest;
}
export function body(extra) { return { scenario: scenarioNow(), name: state.name, changes: changeList(), ...extra }; }

// The best threshold policy of an optimize answer: under a rhythm, the best single vector (the bars
// give one policy for the whole period), with its levels.
export function bestThresholds(found) {
  if (!found.single) return found.best;
  return { ...found.single, levels: levelsOf(found.single.thresholds, capacity()) };
}

// The thresholds of a level map whose robots never rise with the level, else null.
export function thresholdsOf(levels) {
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

export function levelsOf(thresholds, k) {
  const n = modes(), levels = [];
  for (let i = 0; i <= k; i++) {
    let r = 1;
    while (r < n && i > thresholds[r - 1]) r++;
    levels.push(n - r + 1);
  }
  return levels;
}
