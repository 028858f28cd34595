#pragma once
// What every caller of the request layer checks before a request runs, the same for the command
// line, the Python package and the lab: whether the exact engine's chain fits in this machine's
// memory, and which policy a scenario stands for when none is named.
#include <string>

#include "analytic/stationary_solver.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::api {

// Why the exact chain of `model` would not fit in this machine's memory (its size and the largest
// capacity that would), or empty when it fits.
std::string exact_engine_refusal(const model::Model& model,
                                 analytic::Method method = analytic::Method::kAuto);
// Refuses (model::InputError naming `source`) a model `method` cannot take: one whose exact chain
// would not fit in memory, or batches under qbd.
void require_exact_engine_fits(const model::Model& model, const std::string& source,
                               analytic::Method method = analytic::Method::kAuto);
// Refuses (model::InputError naming `source` and `what_asked`, e.g. "--class markov") a model whose
// optimal control over full-state policies would not fit in memory, naming the largest capacity
// that would.
void require_markov_control_fits(const model::Model& model, const std::string& source,
                                 const std::string& what_asked);

// The scenario's own policy, or the only one a one-mode model has; model::InputError naming
// `source` and how to give one (`how`, e.g. "give --thresholds j1,...,j3 or --levels m0,...,m5")
// otherwise.
model::ControlPolicy policy_or_default(const model::Model& model, const std::string& source,
                                       const std::string& how);

}  // namespace crawlq::api
