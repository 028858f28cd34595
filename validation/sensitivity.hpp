#pragma once
// How much each measure of one policy moves with each parameter group (`solve --sensitivity`):
// the derivative, and the elasticity (the percent change of the measure per percent change of the
// parameter). The parameters are sweep's, with the same meanings (a scale multiplies the rates),
// plus each mode's own arrival scale.
//
// The scales' derivatives are central differences of the exact engine, extrapolated (Richardson)
// from steps of 1e-3 and 5e-4: the truncation error is of order 1e-12 and each solve's error is
// divided by the step, so a direct solve gives about 10 correct digits. (An adjoint, one solve per
// measure, is the way for the rates one by one; for these few groups the differences cost no
// more.) The cost weights enter the cost linearly and nothing else: their derivatives are exact.
// Capacity is whole: for a level-map policy, the difference of the measures at K + 1 and K - 1
// over 2 (at K = 1, K + 1 and K), the policy keeping its top level's robots for the page added
// (as a threshold vector does); the other forms' tables have no such rule, and no capacity row.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::validation {

struct Sensitivity {
  std::string parameter;  // "service-scale", "arrival-scale:2", "costs.loss", ...
  // A scalar key of `solve --json`, or (for the scales) an entry of its vectors,
  // "level_probabilities[2]", "mode_probabilities[0]" (r - 1 for r robots).
  std::string measure;
  double derivative = 0;
  // derivative x parameter / measure; none where the measure is 0.
  std::optional<double> elasticity;
};

// `model` with mode r's arrival matrices D_k^(r) (D_0 included) times `scale`, the other modes as
// they are. Throws std::invalid_argument naming the parameter when the scaled model breaks a rule.
model::Model with_mode_arrival_scale(const model::Model& model, int mode, double scale);

// `model` with mode r's matrices (1..modes) changed by `change`, read back under every rule of a
// BMAP (model::InputError naming arrivals.modes[r-1].D when the change breaks one).
model::Model with_mode_matrices(const model::Model& model, int mode,
                                const std::function<void(std::vector<model::Matrix>&)>& change);

// Every (parameter, scalar measure) pair for `policy`, and for each scale every level's and mode's
// probability (capacity changes the levels, and a cost weight moves the cost alone), whose
// measures at the model as given are `at`. The parameters in order: arrival-scale,
// arrival-scale:r for each mode r, service-scale, obsolescence-scale (when pages expire),
// capacity (for a level map), then costs.KEY for each weight. Throws std::runtime_error naming the
// parameter when a shifted model's solve fails.
std::vector<Sensitivity> sensitivities(const model::Model& model,
                                       const model::ControlPolicy& policy,
                                       const analytic::Measures& at, analytic::Method method,
                                       int threads);

}  // namespace crawlq::validation
