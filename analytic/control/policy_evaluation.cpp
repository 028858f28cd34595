#include "analytic/control/policy_evaluation.hpp"

#include <algorithm>
#include <chrono>

#include "model/elapsed.hpp"

namespace crawlq::analytic {

using crawlq::model::seconds_since;

PolicyEvaluator::PolicyEvaluator(const model::Model& model, Method method, int solve_threads,
                                 const std::atomic<bool>* stop)
    : model_(model),
      method_(method),
      solve_threads_(std::max(1, solve_threads)),
      stop_(stop),
      cache_(std::make_unique<BlockRecursionCache>()) {}

StateSpace chain_space(const model::Model& model, const model::ControlPolicy& policy) {
  if (std::holds_alternative<model::TablePolicy>(policy)) return StateSpace(model);
  return StateSpace(model, ControlledArrivals(model, policy).phases());
}

void add_sojourn_means_and_cost(const model::Costs& costs, const SojournTimes& sojourn,
                                Measures& m) {
  m.mean_sojourn = sojourn.mean(PageFate::kAccepted);
  m.mean_sojourn_served = sojourn.mean(PageFate::kServed);
  m.mean_sojourn_obsolete = sojourn.mean(PageFate::kObsolete);
  m.cost = model::cost_criterion(costs, m);
}

const TaggedPageChain& PolicyEvaluator::tagged_chain() const {
  std::call_once(chain_built_, [&] {
    const auto start = std::chrono::steady_clock::now();
    chain_ = std::make_unique<TaggedPageChain>(model_, solve_threads_);
    chain_seconds_ = seconds_since(start);
  });
  return *chain_;
}

void PolicyEvaluator::add_sojourn_means_and_cost(PolicyEvaluation& e) const {
  tagged_chain();  // its own time is chain_seconds()
  const auto start = std::chrono::steady_clock::now();
  auto laws = std::make_shared<SojournTimes>(sojourn_times(e));
  analytic::add_sojourn_means_and_cost(model_.costs, *laws, e.measures);
  if (keep_laws_) e.sojourn_laws = std::move(laws);
  e.sojourn_seconds = seconds_since(start);
}

std::shared_ptr<const PolicyFreeBlocks> PolicyEvaluator::policy_free(
    Eigen::Index environment_phases) const {
  const std::lock_guard<std::mutex> lock(policy_free_mutex_);
  auto& shared = policy_free_[environment_phases];
  if (!shared) shared = std::make_shared<PolicyFreeBlocks>(model_, environment_phases);
  return shared;
}

const FullStateChain& PolicyEvaluator::full_state_chain(int threads) const {
  std::call_once(full_state_built_, [&] {
    // 0 (every core) stays 0 for parallel_for.
    full_state_ = std::make_unique<FullStateChain>(
        model_, threads <= 0 ? 0 : std::max(threads, solve_threads_));
  });
  return *full_state_;
}

PolicyEvaluation PolicyEvaluator::evaluate_table(const model::TablePolicy& table,
                                                 const Eigen::VectorXd* warm_start) const {
  const FullStateChain& chain = full_state_chain();
  PolicyEvaluation e{
      .policy = table,
      .stationary = chain.stationary(table.robots, warm_start, stop_, solve_threads_),
      .measures = {}};
  if (e.stationary.summary.status != SolverStatus::kConverged) return e;
  e.measures = chain.measures(table.robots, e.stationary.probabilities);
  add_sojourn_means_and_cost(e);
  return e;
}

PolicyEvaluation PolicyEvaluator::evaluate(const model::ControlPolicy& policy,
                                           const Eigen::VectorXd* warm_start) const {
  // A search of many quick solves stops between them (parallel_for rethrows the first exception).
  if (stop_ && stop_->load()) throw Cancelled();
  if (const auto* table = std::get_if<model::TablePolicy>(&policy))
    return evaluate_table(*table, warm_start);
  const ControlledArrivals arrivals(model_, policy);
  const GeneratorBlocks blocks(model_, policy, policy_free(arrivals.phases()));
  PolicyEvaluation e{.policy = policy,
                     .stationary = solve_stationary(blocks, method_,
                                                    {.cache = cache_.get(),
                                                     .warm_start = warm_start,
                                                     .threads = solve_threads_,
                                                     .stop = stop_}),
                     .measures = {}};
  if (e.stationary.summary.status != SolverStatus::kConverged) return e;
  e.measures =
      compute_measures(model_, blocks.arrivals(), blocks.space(), e.stationary.probabilities);
  add_sojourn_means_and_cost(e);
  return e;
}

SojournTimes PolicyEvaluator::sojourn_times(const PolicyEvaluation& evaluation) const {
  const TaggedPageChain& chain = tagged_chain();
  if (const auto* table = std::get_if<model::TablePolicy>(&evaluation.policy))
    return SojournTimes(
        chain, chain.arrival_distribution(model_, table->robots, full_state_chain().space(),
                                          evaluation.stationary.probabilities));
  const ControlledArrivals arrivals(model_, evaluation.policy);
  const StateSpace space(model_, arrivals.phases());
  return SojournTimes(chain, chain.arrival_distribution(model_, arrivals, space,
                                                        evaluation.stationary.probabilities));
}

}  // namespace crawlq::analytic
