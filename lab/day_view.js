// The day: arrivals that follow the clock (a scenario's `rhythm`, docs/interface.md). The period's
// pieces as bars of their arrival scale, dragged or moved with the arrow keys; over them the share of
// the pages offered in each piece that is lost, from the exact periodic regime the solve computes;
// under them the best threshold vector of each piece (optimize on a rhythm), found again whenever
// the settings change and shown only for the settings it was found for.
import { api } from "./api.js";
import { refresh } from "./results.js";
import { modelKey } from "./policy_view.js";
import { $, body, state } from "./state.js";

// A day of twelve two-hour pieces, quiet at night and busiest in the afternoon; its mean is 1, so
// the day offers the pages the scenario's own rates do.
const DEFAULT_DAY = [0.6, 0.5, 0.5, 0.6, 0.9, 1.2, 1.4, 1.6, 1.5, 1.3, 1.1, 0.8];
const SMALLEST_SCALE = 0.05, KEY_STEP = 0.1;

let dayBest = null;      // /api/optimize of a rhythm's settings, with the model key it was found for
let searching = null;    // the search under way: its AbortController
let searchTimer = null;  // the search waits a moment for the settings to settle

export function rhythmOn() { return Boolean(state.rhythm); }

function setRhythm(rhythm) {
  state.rhythm = rhythm;
  state.optimum = null;
  document.body.classList.toggle("rhythm", rhythmOn());
  drawDay();
  refresh();
}

// The scale's axis runs to a round value above the largest scale (kept while a bar is dragged, so
// that the bar follows the pointer).
function axisTop(scales) { return Math.max(2, Math.ceil(Math.max(...scales) * 1.25 * 2) / 2); }

function drawChart(svg, top) {
  const scales = state.rhythm.scales, n = scales.length;
  // Larger text on a projector: wider margins and a taller chart for the same labels.
  const projector = document.documentElement.classList.contains("projector");
  const width = svg.clientWidth || 700, height = projector ? 300 : 230;
  const left = projector ? 72 : 52, right = projector ? 104 : 84, above = 30, below = projector ? 52 : 44;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const w = (width - left - right) / n, tall = height - above - below;
  const y = (s) => height - below - tall * s / top;
  const pieces = state.solved?.pieces?.length === n ? state.solved.pieces : null;
  const lossTop = pieces ? Math.max(0.01, ...pieces.map((p) => p.p_loss)) * 1.15 : 1;
  const yLoss = (p) => height - below - tall * p / lossTop;
  const period = state.rhythm.period, unit = state.described.time_units;
  let out = "";
  for (const v of [0, top / 2, top]) out += `<line class="grid" x1="${left}" x2="${width - right}" y1="${y(v)}" y2="${y(v)}"/><text x="${left - 6}" y="${y(v) + 5}" text-anchor="end">${+v.toFixed(2)}</text>`;
  out += `<text transform="translate(14 ${(above + height - below) / 2}) rotate(-90)" text-anchor="middle">arrival scale</text>`;
  const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor((width - left - right) / 46))));
  scales.forEach((s, i) => {
    const start = period * i / n;
    out += `<rect class="scale-bar" data-piece="${i}" tabindex="0" role="slider" aria-label="arrival scale from ${+start.toFixed(3)} ${unit}" aria-valuemin="${SMALLEST_SCALE}" aria-valuemax="${top}" aria-valuenow="${s}" x="${left + i * w + 1}" width="${Math.max(1, w - 2)}" y="${y(s)}" height="${y(0) - y(s)}"><title>from ${+start.toFixed(3)} ${unit}: arrivals x ${s.toFixed(2)}${pieces ? `, ${(100 * pieces[i].p_loss).toFixed(2)}% of the pages offered lost` : ""}</title></rect>`;
    if (i % every === 0) out += `<text x="${left + i * w}" y="${height - below + 18}" text-anchor="middle">${+start.toFixed(2)}</text>`;
  });
  out += `<text x="${left + (width - left - right) / 2}" y="${height - 8}" text-anchor="middle">time of the period (${unit}); each bar a piece</text>`;
  if (pieces) {
    for (const v of [0, lossTop / 2, lossTop]) out += `<text class="loss" x="${width - right + 6}" y="${yLoss(v) + 5}">${(100 * v).toFixed(1)}%</text>`;
    out += `<text class="loss" transform="translate(${width - 12} ${(above + height - below) / 2}) rotate(90)" text-anchor="middle">lost, of the pages offered</text>`;
    const points = pieces.map((p, i) => `${(left + (i + 0.5) * w).toFixed(1)},${yLoss(p.p_loss).toFixed(1)}`);
    out += `<polyline class="loss" points="${points.join(" ")}"/>`;
    out += points.map((p) => `<circle class="loss" r="3.5" cx="${p.split(",")[0]}" cy="${p.split(",")[1]}"/>`).join("");
  }
  // The best vector of each piece above its bar, where the text fits (always in the line below).
  const best = dayBest?.key === modelKey() ? dayBest.found.best.by_piece : null;
  if (best?.length === n) {
    const texts = best.map((piece) => piece.thresholds.join(","));
    const fits = Math.max(...texts.map((t) => t.length)) * 8 + 6 <= w;
    out += `<text class="best" x="4" y="18">best j</text>`;
    if (fits) texts.forEach((t, i) => { out += `<text class="best" x="${left + (i + 0.5) * w}" y="18" text-anchor="middle">${t}</text>`; });
  }
  out += `<line class="axis" x1="${left}" x2="${width - right}" y1="${y(0)}" y2="${y(0)}"/>`;
  svg.innerHTML = out;
  return { y, top, height, below, tall };
}

// The bars answer the pointer and the keys; each change is solved once the bar is let go.
function wireBars(svg, geometry) {
  const scales = state.rhythm.scales;
  const clamp = (s) => Math.min(geometry.top, Math.max(SMALLEST_SCALE, Math.round(s * 100) / 100));
  const setScale = (i, s) => {
    state.rhythm = { ...state.rhythm, scales: scales.map((old, k) => (k === i ? clamp(s) : old)) };
    state.optimum = null;
  };
  for (const bar of svg.querySelectorAll("rect.scale-bar")) {
    const i = Number(bar.dataset.piece);
    bar.addEventListener("keydown", (event) => {
      const step = { ArrowUp: KEY_STEP, ArrowDown: -KEY_STEP }[event.key];
      if (step === undefined) return;
      event.preventDefault();
      setScale(i, state.rhythm.scales[i] + step);
      drawDay(i);
      refresh();
    });
    bar.addEventListener("pointerdown", (event) => {
      bar.setPointerCapture(event.pointerId);
      const box = svg.getBoundingClientRect(), ratio = geometry.height / box.height;
      const fromPointer = (e) => ((geometry.height - geometry.below) - (e.clientY - box.top) * ratio) / geometry.tall * geometry.top;
      const move = (e) => {
        setScale(i, fromPointer(e));
        const moved = svg.querySelector(`rect[data-piece="${i}"]`);
        moved.setAttribute("y", geometry.y(state.rhythm.scales[i]));
        moved.setAttribute("height", geometry.y(0) - geometry.y(state.rhythm.scales[i]));
        $("day-scales").textContent = scalesText();
      };
      move(event);
      const up = () => {
        bar.removeEventListener("pointermove", move);
        bar.removeEventListener("pointerup", up);
        drawDay(i);
        refresh();
      };
      bar.addEventListener("pointermove", move);
      bar.addEventListener("pointerup", up);
    });
  }
}

function scalesText() {
  const scales = state.rhythm.scales, mean = scales.reduce((a, b) => a + b, 0) / scales.length;
  return `scales ${scales.map((s) => s.toFixed(2)).join(" ")} (mean ${mean.toFixed(3)}: the day offers ${mean.toFixed(3)} times the pages of the scenario's own rates)`;
}

// The best vector per piece, when it is of these settings.
function showBest() {
  const out = $("day-best");
  if (!rhythmOn()) { out.textContent = ""; return; }
  if (!dayBest || dayBest.key !== modelKey()) {
    // A search follows every solve of new settings: the old answer is gone, the new one coming.
    out.textContent = "finding the best threshold vector of each piece for these settings...";
    return;
  }
  const found = dayBest.found, unit = state.described.time_units, n = state.rhythm.scales.length;
  const saving = found.saving, share = found.single.cost !== 0 ? 100 * saving / found.single.cost : 0;
  const runs = [];
  found.best.by_piece.forEach((piece, i) => {
    const text = piece.thresholds.join(",");
    if (runs.length && runs.at(-1).text === text) runs.at(-1).to = i + 1;
    else runs.push({ text, from: i, to: i + 1 });
  });
  const at = (i) => +(state.rhythm.period * i / n).toFixed(3);
  out.innerHTML = `<strong>Following the clock</strong> costs ${found.best.cost.toFixed(4)} against ${found.single.cost.toFixed(4)} for the best single threshold vector (${found.single.thresholds.join(", ")}): a saving of ${saving.toFixed(4)} (${share.toFixed(2)}%).` +
    `<br>The best thresholds by time of the period: ${runs.map((r) => `${at(r.from)}-${at(r.to)} ${unit}: <span class="vector">${r.text}</span>`).join("; ")}.`;
}

async function findBest() {
  const key = modelKey();
  searching?.abort();
  const controller = new AbortController();
  searching = controller;
  showBest();
  try {
    const found = await api("/api/optimize", body({ class: "thresholds" }), controller.signal);
    if (searching !== controller || key !== modelKey()) return;
    dayBest = { key, found };
    state.optimum = found;  // the same request as the page's optimum: the teaching mode reuses it
  } catch (error) {
    if (error.name === "AbortError" || searching !== controller) return;
    $("day-best").textContent = `no best vector per piece: ${error.message}`;
    searching = null;
    return;
  }
  searching = null;
  drawDay();  // the chart shows the vectors above the bars
}

// After each solve of a rhythm's settings: the chart's losses, and a new search once the settings
// have stayed a moment (a drag solves at each release; a search is several periodic regimes).
export function daySolved() {
  if (!rhythmOn()) return;
  drawDay();
  if (dayBest?.key === modelKey()) return;
  clearTimeout(searchTimer);
  searchTimer = setTimeout(findBest, 400);
}

document.addEventListener("crawlq:settings", () => {
  if (dayBest && dayBest.key !== modelKey()) dayBest = null;
  if (searching) { searching.abort(); searching = null; }
  if (rhythmOn()) showBest();
});

// `focus`: the bar to give the keyboard back to after the chart is drawn again.
export function drawDay(focus) {
  // A bar the keyboard is on keeps it when the chart is drawn again (each solve redraws it).
  const active = document.activeElement;
  if (focus === undefined && active?.closest?.("#day-chart")) focus = Number(active.dataset.piece);
  document.body.classList.toggle("rhythm", rhythmOn());
  $("day-off").hidden = rhythmOn();
  $("day-on").hidden = !rhythmOn();
  if (!rhythmOn()) return;
  const svg = $("day-chart");
  const geometry = drawChart(svg, axisTop(state.rhythm.scales));
  wireBars(svg, geometry);
  $("day-period").value = String(state.rhythm.period);
  $("day-scales").textContent = scalesText();
  showBest();
  if (focus !== undefined) svg.querySelector(`rect[data-piece="${focus}"]`)?.focus();
}

export function wireDay() {
  $("day-add").onclick = () => setRhythm({ period: 24, scales: DEFAULT_DAY.slice() });
  $("day-remove").onclick = () => setRhythm(null);
  $("day-flatten").onclick = () => {
    const scales = state.rhythm.scales, mean = scales.reduce((a, b) => a + b, 0) / scales.length;
    setRhythm({ ...state.rhythm, scales: scales.map(() => +mean.toFixed(4)) });
  };
  $("day-period").onchange = () => {
    const period = Number($("day-period").value);
    if (!(period > 0) || !Number.isFinite(period)) { $("day-period").value = String(state.rhythm.period); return; }
    setRhythm({ ...state.rhythm, period });
  };
}
