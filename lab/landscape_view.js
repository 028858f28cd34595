// The cost over a plane of two thresholds, as a heat map.
import { api } from "./api.js";
import { canvasFont } from "./canvas_text.js";
import { $, bestThresholds, body, modes, state, thresholdsOf } from "./state.js";

// ---- the landscape ----------------------------------------------------------------------------
export function fillAxes() {
  const n = modes();
  for (const [id, pick] of [["axis-a", Math.max(0, n - 3)], ["axis-b", n - 2]]) {
    const select = $(id);
    select.innerHTML = "";
    for (let r = 0; r < n - 1; r++) select.add(new Option(`j${r + 1}`, r, false, r === pick));
    select.onchange = () => { state.landscapeKey = null; drawLandscape(); };
  }
}

export async function drawLandscape() {
  const canvas = $("landscape"), ctx = canvas.getContext("2d");
  const n = modes(), thresholds = thresholdsOf(state.levels) ?? (state.optimum ? Array.from(bestThresholds(state.optimum).thresholds) : null);
  // No landscape of other settings stays on screen under this one's message.
  const clear = (note) => {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    state.landscape = null; state.landscapeKey = null;
    canvas.hidden = true;  // no empty frame either: the message stands alone
    $("landscape-legend").innerHTML = "";
    $("landscape-note").textContent = note;
  };
  if (n < 3) { clear("Two thresholds need three modes or more."); return; }
  const a = Number($("axis-a").value), b = Number($("axis-b").value);
  if (a === b) { clear("Choose two different thresholds."); return; }
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
  } catch (error) { if (state.landscapeKey === key) clear(error.message); return; }
  if (state.landscapeKey !== key) return;
  state.landscape = L;
  canvas.hidden = false;
  const size = L.values.length, margin = 36, cell = (canvas.width - margin) / size;
  const costs = L.cost.flat().filter((c) => c !== null), low = Math.min(...costs), high = Math.max(...costs);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  // The thresholds' values along the top (columns) and the left (rows).
  ctx.fillStyle = "#5b6570"; ctx.font = canvasFont(canvas); ctx.textAlign = "center"; ctx.textBaseline = "middle";
  const every = Math.ceil(size / 16);
  L.values.forEach((v, k) => {
    if (k % every) return;
    ctx.fillText(String(v), margin + (k + 0.5) * cell, margin / 2);
    ctx.fillText(String(v), margin / 2, margin + (k + 0.5) * cell);
  });
  const colour = (t) => `hsl(${220 - 200 * t}, 70%, ${35 + 40 * t}%)`;
  ctx.save(); ctx.translate(margin, margin);
  L.cost.forEach((row, i) => row.forEach((c, j) => {
    if (c === null) { ctx.fillStyle = "#eef1f4"; } else {
      const t = Math.pow((c - low) / Math.max(1e-12, high - low), 0.5);
      ctx.fillStyle = colour(t);
    }
    ctx.fillRect(j * cell, i * cell, cell, cell);
  }));
  const mark = (t, color, width) => {
    if (!t) return;
    const i = L.values.indexOf(t[a]), j = L.values.indexOf(t[b]);
    ctx.strokeStyle = color; ctx.lineWidth = width;
    ctx.strokeRect(j * cell + width / 2, i * cell + width / 2, cell - width, cell - width);
  };
  // The colour scale: the cells' colour is the square root of the cost's place between the lowest
  // and the highest, so the ramp's middle is a quarter of the way up in cost.
  const ramp = [0, 0.25, 0.5, 0.75, 1].map((t) => `${colour(t)} ${100 * t}%`).join(", ");
  $("landscape-legend").innerHTML = `cost <span>${low.toFixed(3)}</span><span class="ramp" style="background: linear-gradient(to right, ${ramp})"></span>` +
    `<span>${high.toFixed(3)}</span> <span class="legend-middle">(the middle colour: ${(low + 0.25 * (high - low)).toFixed(3)})</span>`;
  mark(L.best && L.best.thresholds, "#ffffff", 4);
  mark(thresholds, "#000000", 2);
  ctx.restore();
  $("landscape-note").textContent = `rows: j${a + 1} from -1 to ${L.values[size - 1]}; columns: j${b + 1}. White square: the cheapest here (${L.best ? L.best.cost.toFixed(3) : "-"}); black: the current policy${thresholds ? "" : " (not a threshold policy)"}; grey: thresholds out of order.`;
}
