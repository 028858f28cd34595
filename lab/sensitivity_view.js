// How sensitive the answer is: the exact elasticities of the current settings (solve --sensitivity
// and --sensitivity-rates: each parameter group, and each single rate of the laws), on request,
// since they take a few dozen solves. Shown for the settings they were computed for and cleared as
// soon as those change.
import { api } from "./api.js";
import { measureLabel } from "./results.js";
import { currentPolicy, settingsKey } from "./policy_view.js";
import { $, body } from "./state.js";

// The measures whose elasticities are listed, and how many rows of the groups and of the single
// rates, largest first.
export const MEASURES = new Set(["cost", "p_loss", "p_obsolete", "p_served", "mean_sojourn_served"]);
const GROUP_ROWS = 8, RATE_ROWS = 6;
// A group's name has no brackets; a single rate's is its path in the file ("service.exit[0]").
export const isSingleRate = (parameter) => parameter.includes("[");

const ordinal = (index) => String(Number(index) + 1);
const robots = (mode) => `${ordinal(mode)} robot${mode === "0" ? "" : "s"} on`;

// A single rate or start entry in words, from its path in the scenario file (indices from 0).
function rateName(parameter) {
  let m = /^arrivals\.modes\[(\d+)\]\.D\[(\d+)\]\[(\d+)\]\[(\d+)\]$/.exec(parameter);
  if (m) {
    const [, mode, k, from, to] = m;
    return k === "0"
      ? `arrival phase ${ordinal(from)} to ${ordinal(to)}, no page, with ${robots(mode)}`
      : `batches of ${k} page${k === "1" ? "" : "s"} from arrival phase ${ordinal(from)} (to ${ordinal(to)}) with ${robots(mode)}`;
  }
  m = /^(service|obsolescence)\.(S|Gamma|exit|beta|gamma)\[(\d+)\](?:\[(\d+)\])?$/.exec(parameter);
  if (!m) return parameter;
  const [, law, entry, u, v] = m;
  const who = law === "service" ? "the indexer" : "a waiting page's clock";
  if (entry === "exit") return law === "service" ? `the indexer finishing from phase ${ordinal(u)}` : `pages going stale from clock phase ${ordinal(u)}`;
  if (entry === "beta" || entry === "gamma") return `${who} starting in phase ${ordinal(u)}`;
  return `${who}: phase ${ordinal(u)} to ${ordinal(v)}`;
}

// A parameter group, or a single rate, in words: what a 1% change of it means.
function inputName(parameter) {
  const mode = /^arrival-scale:(\d+)$/.exec(parameter);
  if (mode) return `arrival rates with ${mode[1]} robot${mode[1] === "1" ? "" : "s"} on`;
  const named = {
    "arrival-scale": "every arrival rate", "service-scale": "the indexer's speed",
    "obsolescence-scale": "how fast pages go stale", "capacity": "the buffer's capacity K",
  };
  if (named[parameter]) return named[parameter];
  return parameter.startsWith("costs.") ? `the cost weight ${parameter.slice(6)}` : rateName(parameter);
}

let shownFor = null;  // the settings the table on show was computed for
document.addEventListener("crawlq:settings", (event) => {
  if (shownFor !== null && event.detail !== shownFor) {
    shownFor = null;
    $("sensitivity-table").querySelector("tbody").innerHTML = "";
    $("sensitivity-note").textContent = "The settings changed: compute again for these.";
  }
});

export async function showSensitivity() {
  const asked = settingsKey();
  $("sensitivity").textContent = "computing...";
  $("sensitivity-note").textContent = "";
  try {
    const solved = await api("/api/solve", body({ policy: currentPolicy(), sensitivity: true, sensitivity_rates: true }));
    if (settingsKey() !== asked) return;  // changed while it ran: its numbers are of old settings
    const largest = (single, count) => solved.sensitivity
      .filter((row) => MEASURES.has(row.measure) && row.elasticity !== null && isSingleRate(row.parameter) === single)
      .sort((a, b) => Math.abs(b.elasticity) - Math.abs(a.elasticity)).slice(0, count);
    const lines = (rows) => rows.map((row) => `<tr><td>${inputName(row.parameter)}</td><td>${measureLabel(row.measure)}</td>` +
      `<td class="${row.elasticity < 0 ? "down" : "up"}">${row.elasticity >= 0 ? "+" : ""}${row.elasticity.toFixed(3)}%</td></tr>`).join("");
    shownFor = asked;
    $("sensitivity-table").querySelector("tbody").innerHTML =
      `<tr class="heading"><td><strong>1% more of</strong></td><td><strong>moves</strong></td><td><strong>by</strong></td></tr>` +
      lines(largest(false, GROUP_ROWS)) +
      `<tr class="heading"><td colspan="3"><strong>1% more of one rate alone</strong></td></tr>` +
      lines(largest(true, RATE_ROWS));
    $("sensitivity-note").textContent = `Derivatives of these settings by the exact engine, by parameter group and by single rate (${solved.sensitivity.length} in all; crawlq solve --sensitivity --sensitivity-rates --json lists them). A single rate moves with its phase's total, a start with the other phases'.`;
  } catch (error) {
    $("sensitivity-note").textContent = error.message;
  } finally {
    $("sensitivity").textContent = "how sensitive is the answer?";
  }
}
