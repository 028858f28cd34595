#include "analytic/policy_evaluation.hpp"

#include <algorithm>

namespace crawlq::analytic {

PolicyEvaluator::PolicyEvaluator(const model::Model& model, Method method, int solve_threads,
                                 const std::atomic<bool>* stop)
    : model_(model),
      method_(method),
      solve_threads_(std::max(1, solve_threads)),
      stop_(stop),
      chain_(model),
      cache_(std::make_unique<BlockRecursionCache>()) {}

PolicyEvaluation PolicyEvaluator::evaluate(const model::ControlPolicy& policy,
                                           const Eigen::VectorXd* warm_start) const {
  const GeneratorBlocks blocks(model_, policy);
  PolicyEvaluation e{.policy = policy,
                     .stationary = solve_stationary(
                         blocks, method_, {.cache = cache_.get(), .warm_start = warm_start, .threads = solve_threads_, .stop = stop_}),
                     .measures = {}};
  if (e.stationary.summary.status != SolverStatus::kConverged) return e;
  e.measures = compute_measures(model_, blocks.arrivals(), blocks.space(), e.stationary.probabilities);
  const SojournTimes sojourn = sojourn_times(e);
  e.measures.mean_sojourn = sojourn.mean(PageFate::kAccepted);
  e.measures.mean_sojourn_served = sojourn.mean(PageFate::kServed);
  e.measures.mean_sojourn_obsolete = sojourn.mean(PageFate::kObsolete);
  e.measures.cost = model::cost_criterion(model_.costs, e.measures);
  return e;
}

SojournTimes PolicyEvaluator::sojourn_times(const PolicyEvaluation& evaluation) const {
  const ControlledArrivals arrivals(model_, evaluation.policy);
  const StateSpace space(model_, arrivals.phases());
  return SojournTimes(chain_, chain_.arrival_distribution(model_, arrivals, space,
                                                          evaluation.stationary.probabilities));
}

}  // namespace crawlq::analytic
