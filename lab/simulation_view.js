// The simulation: one sample path animated, and the estimates of independent replications
// narrowing beside the exact values.
import { streamSimulation } from "./api.js";
import { currentPolicy, settingsKey } from "./policy_view.js";
import { canvasFont } from "./canvas_text.js";
import { measureLabel } from "./results.js";
import { $, body, capacity, modes, state } from "./state.js";

// ---- the simulation -----------------------------------------------------------------------------
const ESTIMATED = ["p_loss", "p_obsolete", "p_served", "p_starvation", "mean_active_robots", "cost"];


const animation = { events: [], next: 0, time: 0, horizon: 1, pages: [], level: 0, robots: 0, lost: 0, expired: 0,
  served: 0, flashes: [], running: false, loop: 0, last: 0, frames: 0 };

function startAnimation(path) {
  Object.assign(animation, { events: path.events, horizon: path.horizon, next: 0, time: 0, pages: [], level: 0,
    robots: 0, lost: 0, expired: 0, served: 0, flashes: [], last: performance.now() });
  if (!animation.running) {
    // One loop of frames at a time: a loop stopped and started again before its next frame ends.
    animation.running = true;
    const loop = ++animation.loop;
    const next = (now) => { if (animation.running && loop === animation.loop) { frame(now); requestAnimationFrame(next); } };
    requestAnimationFrame(next);
  }
}

function removePage(arrival, fromHead) {
  const pages = animation.pages;
  if (!pages.length) return;
  if (fromHead) { pages.shift(); return; }
  let best = pages.length > 1 ? 1 : 0;
  for (let i = best; i < pages.length; i++) if (Math.abs(pages[i] - arrival) < Math.abs(pages[best] - arrival)) best = i;
  pages.splice(best, 1);
}

export function apply(event) {
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
}

function draw(now) {
  const canvas = $("animation"), ctx = canvas.getContext("2d"), W = canvas.width, H = canvas.height;
  const n = state.described ? modes() : 1, k = capacity();
  const meanAge = state.described?.obsolescence?.mean ?? Infinity;
  ctx.clearRect(0, 0, W, H);
  ctx.font = canvasFont(canvas); ctx.textBaseline = "middle"; ctx.textAlign = "center";
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
  }
  // Refusals and expiries close together share one label with their count, at the newest one's fade:
  // one label each, never two drawn over each other.
  const label = (kind, words, colour, x, y) => {
    const active = animation.flashes.filter((f) => f.kind === kind);
    if (!active.length) return;
    const t = (now - active[active.length - 1].at) / 500;
    const count = active.reduce((sum, f) => sum + (f.count ?? 1), 0);
    ctx.fillStyle = `rgba(${colour}, ${1 - t})`;
    ctx.fillText(`${count} ${words}`, x, y(t));
  };
  label("lost", "refused", "180, 35, 24", left + 60, (t) => 48 + 10 * t);
  label("expired", "stale", "91, 101, 112", (left + right) / 2, (t) => H - 30 - 10 * t);
  ctx.fillStyle = "#1b1f24"; ctx.textAlign = "left";
  ctx.fillText(`${animation.level} page${animation.level === 1 ? "" : "s"}   served ${animation.served}   refused ${animation.lost}   stale ${animation.expired}`, left, 20);
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
// The settings the simulation on show was asked for (body() without the replications).
let simulatedSettings = null;

// Numbers of settings the user has since changed are never shown: the run stops, the animation and
// the estimates go, and the table says why.
function forgetSimulation() {
  if (simulation) simulation.abort();
  simulation = null; simulatedSettings = null; state.estimates = null;
  animation.running = false;
  const canvas = $("animation");
  canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
  $("clock").textContent = "";
  $("estimates").querySelector("tbody").innerHTML =
    `<tr><td colspan="4" class="note">The settings changed since the last simulation: simulate again for these.</td></tr>`;
  $("simulate").textContent = "simulate this policy";
}
document.addEventListener("crawlq:settings", (event) => {
  if (simulatedSettings !== null && event.detail !== simulatedSettings) forgetSimulation();
});

export async function simulate() {
  if (simulation) simulation.abort();
  simulation = new AbortController();
  const mine = simulation;
  simulatedSettings = settingsKey();
  // The replications finish faster than a class can watch them: shown at the pace chosen, one
  // estimate after another, so that the intervals are seen narrowing.
  const waiting = [];
  let shownAt = -Infinity, timer = null;
  const showNext = () => {
    timer = null;
    if (mine !== simulation || !waiting.length) return;
    const wait = shownAt + Number($("replication-pace").value) - performance.now();
    if (wait > 0) { timer = setTimeout(showNext, wait); return; }
    const next = waiting.shift();
    shownAt = performance.now();
    state.estimates = next;
    showEstimates(next);
    if (waiting.length) showNext();
  };
  try {
    await streamSimulation(body({ policy: currentPolicy(), replications: 20 }), (kind, data) => {
      if (kind === "path") startAnimation(data);
      else if (kind === "estimates") { waiting.push(data); if (!timer) showNext(); }
      else if (kind === "error") $("status").textContent = data.error;
    }, mine.signal);
  } catch (error) {
    if (error.name !== "AbortError") $("status").textContent = error.message;
  }
}
