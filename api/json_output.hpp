#pragma once
// The JSON shapes of interface.md, in one place so that every command spells the keys alike.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/sojourn/sojourn_times.hpp"
#include "model/control_policy.hpp"
#include "model/measure_list.hpp"
#include "model/model.hpp"
#include "model/rhythm.hpp"
#include "sim/replications.hpp"

namespace crawlq::api {

// {"mean", "half_width"}: a simulated measure.
nlohmann::json interval_json(const sim::Interval& interval);
nlohmann::json intervals_json(const std::vector<sim::Interval>& intervals);
inline nlohmann::json measure_json(double value) { return value; }
inline nlohmann::json measure_json(const sim::Interval& interval) {
  return interval_json(interval);
}

// Every measure of the list under its key (the lists of level and mode probabilities too, unless
// `with_lists` is false), exact values as numbers and simulated ones as intervals.
template <class T>
void put_measures(nlohmann::json& j, const model::MeasureSet<T>& measures, bool with_lists = true) {
  for (const auto& m : model::scalar_measures<T>())
    j[std::string(m.name.key)] = measure_json(measures.*m.field);
  if (!with_lists) return;
  for (const auto& m : model::list_measures<T>()) {
    nlohmann::json list = nlohmann::json::array();
    for (const T& x : measures.*m.field) list.push_back(measure_json(x));
    j[std::string(m.name.key)] = std::move(list);
  }
}

// {"measures": [{"key", "symbol", "description"}, ...]}: the scalar measures in the order the
// tables print them, then the lists (model/measure_list.hpp), for a page that names them.
nlohmann::json measure_list_json();

// {"period", "pieces", "scales"}: a scenario's rhythm, as the commands that follow one name it.
nlohmann::json rhythm_keys_json(const model::Rhythm& rhythm);

// A matrix as rows of numbers (a row vector as one row), a zero written 0 whatever its sign: a
// scenario's matrices as the engines use them, and fitted ones ready to paste into a scenario.
nlohmann::json matrix_json(const model::Matrix& m);

// {"levels": [...], "thresholds": [...] (threshold policies only)}
nlohmann::json policy_json(const model::Policy& policy);
// {"levels": ..} for a level map, {"kind": "phase-aware" | "hysteresis", ...} for the others.
nlohmann::json control_policy_json(const model::ControlPolicy& policy);
// The keys of `solve --json`.
nlohmann::json evaluation_json(const analytic::PolicyEvaluation& evaluation);

// A class's best as optimize --json writes it: a policy object, {"phase_aware": [[...]]},
// {"memory": [[...]]} or {"table": FILE or null}, with "cost".
nlohmann::json class_best_json(const model::ControlPolicy& policy, double cost,
                               const std::string& table_file = "");

// Why a chain left the clock's phases out, for "lumping" in solve's, optimize's and sweep's JSON.
std::string clock_lumping_text(double rate, const std::string& time_unit);
// The same, whole, for one chain (solve's "lumping", validate's): `chain` counts pages, not their
// clocks' phases (`solved` states of `full`), and the full chain keeps them with the same `what`.
std::string lumped_chain_text(double rate, const std::string& time_unit, std::string_view chain,
                              const std::string& solved, const std::string& full,
                              std::string_view what);
// The same, whole, for a search's "lumping" (optimize's and sweep's), whose chains are many.
std::string searched_lumping_text(double rate, const std::string& time_unit);

// A chain's state count as `states` gives it: an integer while it is one, a double beyond 2^53, and
// beyond a double's range text such as "1.2e1505" (JSON has no number that large, and null would
// say "unknown"). The text form for a message: the same count, in at most 6 digits.
nlohmann::json chain_states_json(const model::Model& m, double states);
std::string chain_states_text(const model::Model& m, double states);

}  // namespace crawlq::api
