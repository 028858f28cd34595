// How sensitive the answer is: the exact elasticities of the current settings (solve --sensitivity),
// on request, since they take a few dozen solves. Shown for the settings they were computed for and
// cleared as soon as those change.
import { api } from "./api.js";
import { measureLabel } from "./results.js";
import { currentPolicy, settingsKey } from "./policy_view.js";
import { $, body } from "./state.js";

// The measures whose elasticities are listed, and how many rows, largest first.
const MEASURES = new Set(["cost", "p_loss", "p_obsolete", "p_served", "mean_sojourn_served"]);
const ROWS = 12;

// A parameter group in words: what a 1% change of it means.
function inputName(parameter) {
  const mode = /^arrival-scale:(\d+)$/.exec(parameter);
  if (mode) return `arrival rates with ${mode[1]} robot${mode[1] === "1" ? "" : "s"} on`;
  const named = {
    "arrival-scale": "every arrival rate", "service-scale": "the indexer's speed",
    "obsolescence-scale": "how fast pages go stale", "capacity": "the buffer's capacity K",
  };
  if (named[parameter]) return named[parameter];
  return parameter.startsWith("costs.") ? `the cost weight ${parameter.slice(6)}` : parameter;
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
    const solved = await api("/api/solve", body({ policy: currentPolicy(), sensitivity: true }));
    if (settingsKey() !== asked) return;  // changed while it ran: its numbers are of old settings
    const rows = solved.sensitivity.filter((row) => MEASURES.has(row.measure) && row.elasticity !== null)
      .sort((a, b) => Math.abs(b.elasticity) - Math.abs(a.elasticity)).slice(0, ROWS);
    shownFor = asked;
    $("sensitivity-table").querySelector("tbody").innerHTML =
      `<tr><td><strong>1% more of</strong></td><td><strong>moves</strong></td><td><strong>by</strong></td></tr>` +
      rows.map((row) => `<tr><td>${inputName(row.parameter)}</td><td>${measureLabel(row.measure)}</td>` +
        `<td class="${row.elasticity < 0 ? "down" : "up"}">${row.elasticity >= 0 ? "+" : ""}${row.elasticity.toFixed(3)}%</td></tr>`).join("");
    $("sensitivity-note").textContent = `Derivatives of these settings by the exact engine (${solved.sensitivity.length} in all; crawlq solve --sensitivity --json lists them).`;
  } catch (error) {
    $("sensitivity-note").textContent = error.message;
  } finally {
    $("sensitivity").textContent = "how sensitive is the answer?";
  }
}
