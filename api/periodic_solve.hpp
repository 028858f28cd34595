#pragma once
// `solve` on a scenario with a rhythm: the periodic regime (analytic/transient/periodic_regime.hpp)
// as the long run, started from the stationary vector of the period's mean arrivals, and its JSON
// (`"rhythm"` and `"pieces"`, interface.md).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analytic/control/periodic_evaluation.hpp"
#include "analytic/transient/periodic_regime.hpp"
#include "api/caller_words.hpp"
#include "model/model.hpp"

namespace crawlq::api {

using PeriodicSolve = analytic::PeriodicEvaluation;

// The periodic regime of `model` under `policies` (piece i runs policies[i % size]) with
// `evaluator` (of analytic::averaged_over_period(model)) giving the start, from the first policy's
// long run; model::InputError naming `source` when the start's solve or the iterations do not
// converge. Cancelled when `cancel` is set.
PeriodicSolve solve_periodic(const model::Model& model,
                             const std::vector<model::ControlPolicy>& policies,
                             const analytic::PolicyEvaluator& evaluator, const std::string& source,
                             Caller caller, int threads, const std::atomic<bool>* cancel = nullptr);

// {"period", "pieces", "residual", "converged", "periods", "extrapolations", "products",
//  "truncation_error", "transient_method"}
nlohmann::json rhythm_json(const model::Rhythm& rhythm, const analytic::PeriodicRegime& regime);
// One object per piece: "start", "length", "scale", "policy" (piece i's of `policies`, repeated),
// every measure's key, and "level_probabilities_at_start".
nlohmann::json pieces_json(const analytic::PeriodicRegime& regime,
                           const std::vector<model::ControlPolicy>& policies);

}  // namespace crawlq::api
