#pragma once
// The lab's JSON API: each POST body holds a scenario in its YAML's JSON form and what to do with
// it; each answer is the JSON of the command of the same name (the request layer's to_json), so the
// page, the command line and the Python package give the same numbers. Bad input throws
// model::InputError, which the server answers with status 400 and the command line's message.
//
// Body: {"scenario": {...} or "the text of a scenario file", "name": "label for messages"
// (optional), "changes": [["capacity", 8],
// ...] (optional, any `sweep --param`), "policy": {...} (optional, a scenario's `policy:` forms),
// and the options of each route}. A policy table comes as its rows ({"table": [r0, r1, ...]}): the
// lab reads no file a request names.
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "api/live_simulation_request.hpp"
#include "api/solve_request.hpp"
#include "server/lab_work_gate.hpp"

namespace crawlq::server {

// What a route needs from the server around it: the request's cancellation (its client left, or
// the lab is stopping), and the wait for its share of the lab's memory and cores, called once the
// need is known and before any work (`long_work`: optimize, landscape, simulate, a large solve).
// What `admit` returns is held while the work runs. Either may be empty (tests, the command line).
struct LabRun {
  const api::Cancellation* cancel = nullptr;
  std::function<std::shared_ptr<void>(double bytes, bool long_work)> admit;
  // Extra cores for admitted work that shares itself out (up to `at_most`, none on a busy lab),
  // held while the loan lives; absent: none.
  std::function<std::unique_ptr<WorkGate::Loan>(int at_most)> borrow_cores;
};

// {"sojourn": bool}: `crawlq solve --json`.
nlohmann::json lab_solve(const nlohmann::json& body, const LabRun& run = {});
// {"times": [...], "from", "outage", "replications", "seed", "policy"}: `crawlq simulate --times
// --json`, on one thread, within api::kLabTransientSeconds.
nlohmann::json lab_transient_simulation(const nlohmann::json& body, const LabRun& run = {});
// {"class": "thresholds" | ..., "search": "auto" | ...}: `crawlq optimize --json`.
nlohmann::json lab_optimize(const nlohmann::json& body, const LabRun& run = {});
// `crawlq describe --json`.
nlohmann::json lab_describe(const nlohmann::json& body);
// {"scenario": its JSON form}, for a scenario given as text; checked as `describe` checks it.
nlohmann::json lab_scenario_form(const nlohmann::json& body);
// The cost over two thresholds: {"thresholds": [j1, ...] (the others' values), "axes": [a, b]
// (which two vary, 0-based)} -> {"axes", "values": [-1..K], "cost": [[cost or null]] (row: axis a's
// value, column: axis b's; null where the vector would decrease), "best": {"thresholds", "cost"}}.
nlohmann::json lab_landscape(const nlohmann::json& body, const LabRun& run = {});
// How sure the answer is, from a crawler's log whose text the body carries ({"log": {"name",
// "text"}, "bootstrap": B, "seed", "policy"}): api/log_ensemble.hpp.
nlohmann::json lab_log_ensemble(const nlohmann::json& body, const LabRun& run = {});

// The simulation as the page animates it (api/live_simulation_request.hpp), its events sent as
// they are made by `emit(kind, data)`. lab_simulation checks the body (model::InputError), waits
// for admission (run.admit) and returns the run, which stops when `emit` returns false (the page
// went away) or `run.cancel` is set.
using LabEmit = api::LiveEmit;
std::function<void(const LabEmit& emit)> lab_simulation(const nlohmann::json& body,
                                                        const LabRun& run = {});

}  // namespace crawlq::server
