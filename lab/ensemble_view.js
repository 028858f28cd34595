// How sure an answer resting on a crawler's log is (api/log_ensemble.hpp): the log the user picks
// is read here and sent as text (the lab reads no file), fitted and refitted on resamples of its
// batches by the server, each fit put in place of these settings' arrivals and solved under this
// policy. Shown for the settings and the log it was computed for; cleared when either changes.
import { api } from "./api.js";
import { measureLabel } from "./results.js";
import { currentPolicy, settingsKey } from "./policy_view.js";
import { $, body } from "./state.js";

// The measures listed, in the order a reader asks about them.
const MEASURES = ["cost", "lambda", "p_loss", "p_obsolete", "p_served", "p_starvation", "mean_sojourn_served"];
// The lab's request body is bounded (1 MiB) and the text travels escaped in JSON.
const LARGEST_LOG = 800 * 1024;

let shownFor = null;  // the settings and log the table on show was computed for
export function clearLogEnsemble() {
  if (shownFor !== null) clear("The log or the refits changed: fit again.");
}
function clear(note) {
  shownFor = null;
  $("ensemble-table").querySelector("tbody").innerHTML = "";
  $("ensemble-note").textContent = note;
}
document.addEventListener("crawlq:settings", (event) => {
  if (shownFor !== null && !shownFor.startsWith(event.detail)) clear("The settings changed: fit the log again for these.");
});

const number = (value) => (value === null ? "-" : Math.abs(value) >= 1e4 || (value !== 0 && Math.abs(value) < 1e-3) ? value.toExponential(3) : value.toPrecision(4));

export async function showLogEnsemble(file = $("ensemble-log").files[0]) {
  if (!file) return clear("Pick a log first: one delivery time a line.");
  if (file.size > LARGEST_LOG) return clear(`${file.name} has ${Math.round(file.size / 1024)} KB: the lab takes logs up to ${LARGEST_LOG / 1024} KB (crawlq fit arrivals --bootstrap takes any).`);
  const refits = Number($("ensemble-refits").value);
  const asked = settingsKey() + `|${file.name}|${file.size}|${file.lastModified}|${refits}`;
  $("ensemble").textContent = "fitting...";
  clear("");
  try {
    const text = await file.text();
    const answer = await api("/api/log-ensemble",
      body({ policy: currentPolicy(), log: { name: file.name, text }, bootstrap: refits }));
    if (!asked.startsWith(settingsKey())) return;  // changed while it ran: these are old settings'
    shownFor = asked;
    $("ensemble-table").querySelector("tbody").innerHTML =
      `<tr class="heading"><td><strong>measure</strong></td><td><strong>with the log's fit</strong></td><td><strong>90% of the refits between</strong></td></tr>` +
      MEASURES.map((key) => {
        const spread = answer.measures[key];
        return `<tr><td>${measureLabel(key)}</td><td class="value">${number(spread.point)}</td>` +
          `<td class="value">${number(spread.low)} and ${number(spread.high)}</td></tr>`;
      }).join("");
    $("ensemble-note").textContent = `${answer.log}: ${answer.lines} deliveries in ${answer.batches} batches, fitted and refitted ${answer.refits} times on block-bootstrap resamples (seed ${answer.seed}); the rest of these settings as they are. crawlq fit arrivals --scenario FILE --bootstrap ${answer.refits} --out DIR, then solve --ensemble DIR/bootstrap, gives the same on the command line.`;
  } catch (error) {
    clear(error.message);
  } finally {
    $("ensemble").textContent = "fit the log and refit it";
  }
}
