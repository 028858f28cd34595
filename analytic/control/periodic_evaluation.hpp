#pragma once
// One scenario with a rhythm evaluated end to end: the stationary vector of the period's mean
// arrivals as the start, then the periodic regime (analytic/transient/periodic_regime.hpp), as a
// PolicyEvaluation whose measures are the period's averages and whose vector is the distribution at
// the period's start. What solve and validate's exact side share.
#include <atomic>
#include <stdexcept>
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/transient/periodic_regime.hpp"

namespace crawlq::analytic {

// The model with the period's mean arrival scale and no rhythm: its stationary vector is where the
// iterations start, and its tagged page's chain is the model's.
model::Model averaged_over_period(const model::Model& model);

// The policies the pieces run: the model's by-piece ones when it has them (a door given a policy
// clears them), else `policy` in every piece.
std::vector<model::ControlPolicy> piece_policies(const model::Model& model,
                                                 const model::ControlPolicy& policy);

// Thrown when the periodic regime does not settle within PeriodicOptions::most_periods.
struct UnsettledRegime : std::runtime_error {
  explicit UnsettledRegime(const PeriodicRegime& regime);
};

struct PeriodicEvaluation {
  PolicyEvaluation evaluation;  // summary: the start's method, ||xM - x||_1, the periods applied
  PeriodicRegime regime;
  double seconds_start = 0;  // the mean arrivals' stationary solve
};

// `evaluator`: of averaged_over_period(model). Piece i runs policies[i % size]; the start is the
// long run of the first. Throws StationaryFailure when the start's solve stops unconverged,
// UnsettledRegime, std::invalid_argument from a method that refuses the model, Cancelled.
PeriodicEvaluation evaluate_periodic(const model::Model& model,
                                     const std::vector<model::ControlPolicy>& policies,
                                     const PolicyEvaluator& evaluator, int threads = 1,
                                     const std::atomic<bool>* stop = nullptr);

}  // namespace crawlq::analytic
