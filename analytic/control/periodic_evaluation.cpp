#include "analytic/control/periodic_evaluation.hpp"

#include <fmt/format.h>

#include <chrono>

namespace crawlq::analytic {

model::Model averaged_over_period(const model::Model& model) {
  model::Model averaged = model;
  averaged.rhythm.reset();
  averaged.piece_policies.clear();
  averaged.arrivals = model::scaled_arrivals(model.arrivals, model.rhythm->mean_scale());
  return averaged;
}

std::vector<model::ControlPolicy> piece_policies(const model::Model& model,
                                                 const model::ControlPolicy& policy) {
  if (model.piece_policies.empty()) return {policy};
  return model.piece_policies;
}

UnsettledRegime::UnsettledRegime(const PeriodicRegime& regime)
    : std::runtime_error(fmt::format("the periodic regime did not settle: after {} periods the "
                                     "period still moves the distribution by {:.2g} (l1)",
                                     regime.periods, regime.residual)) {}

PeriodicEvaluation evaluate_periodic(const model::Model& model,
                                     const std::vector<model::ControlPolicy>& policies,
                                     const PolicyEvaluator& evaluator, int threads,
                                     const std::atomic<bool>* stop) {
  const PolicyEvaluation start = evaluator.evaluate(policies.front());
  if (stop && *stop) throw Cancelled();
  if (start.stationary.summary.status != SolverStatus::kConverged)
    throw StationaryFailure(start.stationary.summary);
  const auto began = std::chrono::steady_clock::now();
  PeriodicRegime regime =
      periodic_regime(model, policies, start.stationary.probabilities, evaluator.tagged_chain(),
                      {.threads = threads, .stop = stop});
  if (!regime.converged) throw UnsettledRegime(regime);
  PeriodicEvaluation out{
      .evaluation = {.policy = policies.front(),
                     .stationary = {.probabilities = regime.start, .summary = {}},
                     .measures = regime.period},
      .regime = std::move(regime),
      .seconds_start = start.stationary.summary.seconds};
  StationarySummary& summary = out.evaluation.stationary.summary;
  summary.status = SolverStatus::kConverged;
  summary.method = start.stationary.summary.method;
  summary.residual = out.regime.residual;
  summary.iterations = out.regime.periods;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return out;
}

}  // namespace crawlq::analytic
