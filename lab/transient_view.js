// Over time: the exact transient of the current settings from a start (empty, full or the long
// run), with the indexer stopped for a while if asked. It comes with every solve (the same request
// carries the times), so it never shows numbers of settings since changed. Two charts: the pages
// in the system against time beside their long-run level, and the pages lost and made obsolete
// since the start beside the long run's rates. The simulator's 95% band for the same start and
// outage is drawn under each exact curve once it arrives (state.band, cleared by every new solve).
import { $, state } from "./state.js";

const POINTS = 60;

// The times, start and outage a solve asks for (the request's own fields: times, from, outage).
export function transientFields() {
  const until = Math.max(0.1, Number($("transient-until").value) || 20);
  const outage = Math.max(0, Number($("transient-outage").value) || 0);
  const times = Array.from({ length: POINTS + 1 }, (_, i) => (until * i) / POINTS);
  return { times, from: $("transient-from").value, outage };
}

// A value's tick labels: about five round steps over [low, high].
function ticks(low, high) {
  const span = high - low || 1, rough = span / 5, power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high + 1e-9 * span; v += step) out.push(+v.toPrecision(6));
  return out;
}

// One chart: curves [{label, css, points: [[t, y]], dashed}], axes with ticks and their labels.
function chart(svg, { yLabel, curves, outage }) {
  const width = svg.clientWidth || 460, height = 240;
  const left = 58, right = 12, top = 12, bottom = 46;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const all = curves.flatMap((c) => c.band ? c.band.map(([t, , hi]) => [t, hi]) : c.points);
  const tMax = Math.max(...all.map((p) => p[0])), yMax = Math.max(1e-9, ...all.map((p) => p[1])) * 1.08;
  const x = (t) => left + ((width - left - right) * t) / tMax;
  const y = (v) => height - bottom - ((height - top - bottom) * v) / yMax;
  let out = "";
  if (outage > 0) out += `<rect class="outage" x="${x(0)}" y="${top}" width="${x(Math.min(outage, tMax)) - x(0)}" height="${height - top - bottom}"><title>indexer stopped</title></rect>`;
  for (const v of ticks(0, yMax)) out += `<line class="grid" x1="${left}" x2="${width - right}" y1="${y(v)}" y2="${y(v)}"/><text x="${left - 6}" y="${y(v) + 5}" text-anchor="end">${v}</text>`;
  for (const t of ticks(0, tMax)) out += `<text x="${x(t)}" y="${height - bottom + 20}" text-anchor="middle">${t}</text>`;
  out += `<line class="axis" x1="${left}" x2="${width - right}" y1="${y(0)}" y2="${y(0)}"/><line class="axis" x1="${left}" x2="${left}" y1="${top}" y2="${y(0)}"/>`;
  out += `<text x="${(left + width - right) / 2}" y="${height - 6}" text-anchor="middle">time since the start (${state.described.time_units})</text>`;
  out += `<text transform="translate(14 ${(top + height - bottom) / 2}) rotate(-90)" text-anchor="middle">${yLabel}</text>`;
  for (const c of curves.filter((c) => c.band)) {
    const upper = c.band.map(([t, lo, hi]) => `${x(t).toFixed(1)},${y(hi).toFixed(1)}`);
    const lower = c.band.map(([t, lo]) => `${x(t).toFixed(1)},${y(lo).toFixed(1)}`).reverse();
    out += `<polygon class="band ${c.css}" points="${upper.concat(lower).join(" ")}"><title>${c.label}</title></polygon>`;
  }
  for (const c of curves.filter((c) => !c.band))
    out += `<polyline class="${c.css}${c.dashed ? " dashed" : ""}" points="${c.points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(" ")}"><title>${c.label}</title></polyline>`;
  svg.innerHTML = out;
}

function legend(element, curves) {
  element.innerHTML = curves.map((c) => `<span class="item"><span class="key ${c.css}${c.dashed ? " dashed" : ""}${c.band ? " band" : ""}"></span>${c.label}</span>`).join("");
}

// A simulated key as a band [[t, mean - hw, mean + hw]] (a rate with no estimate left out).
function bandOf(band, key) {
  return band.times.filter((p) => p[key].mean !== null).map((p) => [p.t, p[key].mean - p[key].half_width, p[key].mean + p[key].half_width]);
}

export function drawTransient() {
  const r = state.solved;
  if (!r || !r.times) return;
  const points = r.times, last = points[points.length - 1].t;
  const inSystem = [
    { label: "pages in the system (mean)", css: "pages", points: points.map((p) => [p.t, p.mean_in_system]) },
    { label: "its long-run level", css: "pages", dashed: true, points: [[0, r.mean_in_system], [last, r.mean_in_system]] },
  ];
  const lossRate = r.lambda * r.p_loss, obsoleteRate = r.lambda * r.p_obsolete;
  const counts = [
    { label: "lost since the start", css: "lost", points: points.map((p) => [p.t, p.lost]) },
    { label: "lost at the long-run rate", css: "lost", dashed: true, points: [[0, 0], [last, lossRate * last]] },
    { label: "made obsolete since the start", css: "obsolete", points: points.map((p) => [p.t, p.obsolete]) },
    { label: "obsolete at the long-run rate", css: "obsolete", dashed: true, points: [[0, 0], [last, obsoleteRate * last]] },
  ];
  const b = state.band;
  if (b) {
    const label = `simulated, 95% band (${b.replications} replications)`;
    inSystem.push({ label, css: "pages", band: bandOf(b, "mean_in_system") });
    counts.push({ label: `lost: ${label}`, css: "lost", band: bandOf(b, "lost") });
    counts.push({ label: `obsolete: ${label}`, css: "obsolete", band: bandOf(b, "obsolete") });
    const end = b.times[b.times.length - 1];
    $("transient-band").textContent =
      `Simulated (${b.replications} replications from the same start): by t = ${end.t}, ` +
      `${end.lost.mean.toFixed(3)} \u00b1 ${end.lost.half_width.toFixed(3)} pages lost and ` +
      `${end.obsolete.mean.toFixed(3)} \u00b1 ${end.obsolete.half_width.toFixed(3)} made obsolete.`;
  }
  chart($("transient-pages"), { yLabel: "pages", curves: inSystem, outage: r.outage });
  chart($("transient-counts"), { yLabel: "pages since the start", curves: counts, outage: r.outage });
  legend($("transient-pages-key"), inSystem);
  legend($("transient-counts-key"), counts);
  const end = points[points.length - 1];
  $("transient-summary").textContent =
    `By t = ${last}: ${end.lost.toFixed(3)} pages lost and ${end.obsolete.toFixed(3)} made obsolete, ` +
    `${end.excess_lost >= 0 ? "+" : ""}${end.excess_lost.toFixed(3)} and ${end.excess_obsolete >= 0 ? "+" : ""}${end.excess_obsolete.toFixed(3)} beyond the long run's rates.`;
}
