#pragma once
// The lab's JSON API: each POST body holds a scenario in its YAML's JSON form and what to do with it;
// each answer is the JSON of the command of the same name (the request layer's to_json), so the page,
// the command line and the Python package give the same numbers. Bad input throws model::InputError,
// which the server answers with status 400 and the command line's message.
//
// Body: {"scenario": {...}, "name": "label for messages" (optional), "changes": [["capacity", 8], ...]
// (optional, any `sweep --param`), "policy": {...} (optional, a scenario's `policy:` forms), and the
// options of each route}.
#include <nlohmann/json.hpp>

#include "api/solve_request.hpp"

namespace crawlq::app {

// {"sojourn": bool}: `crawlq solve --json`.
nlohmann::json lab_solve(const nlohmann::json& body, const api::Cancellation* cancel = nullptr);
// {"class": "thresholds" | ..., "search": "auto" | ...}: `crawlq optimize --json`.
nlohmann::json lab_optimize(const nlohmann::json& body, const api::Cancellation* cancel = nullptr);
// `crawlq describe --json`.
nlohmann::json lab_describe(const nlohmann::json& body);
// The cost over two thresholds: {"thresholds": [j1, ...] (the others' values), "axes": [a, b] (which
// two vary, 0-based)} -> {"axes", "values": [-1..K], "cost": [[cost or null]] (row: axis a's value,
// column: axis b's; null where the vector would decrease), "best": {"thresholds", "cost"}}.
nlohmann::json lab_landscape(const nlohmann::json& body, const api::Cancellation* cancel = nullptr);

}  // namespace crawlq::app
