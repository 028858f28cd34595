#pragma once
// One policy solved end to end: stationary vector, measures, sojourn means and the cost (2).
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "analytic/cancelled.hpp"
#include "analytic/sojourn/sojourn_times.hpp"
#include "analytic/sojourn/tagged_page_chain.hpp"
#include "analytic/stationary/block_recursive_solver.hpp"
#include "analytic/stationary/full_state_chain.hpp"
#include "analytic/stationary/measures.hpp"
#include "analytic/stationary/stationary_solver.hpp"

namespace crawlq::analytic {

struct PolicyEvaluation {
  model::ControlPolicy policy;
  StationaryResult stationary;
  Measures measures;  // every one, the sojourn means and the cost (2) included
  // Wall time of the sojourn means (the arrival's start in the tagged chain and its moments read);
  // the stationary solve's is stationary.summary.seconds.
  double sojourn_seconds = 0;
  // The laws the means were read from, where the evaluator keeps them (keep_sojourn_laws): their
  // quantiles then need no second start in the tagged chain (1.6 s at K = 24).
  std::shared_ptr<SojournTimes> sojourn_laws = nullptr;
};

// The states of the chain `policy` is solved on: that of section 3, whose arrival phases are the
// mode in force and the arrival phase (mode-major) for a policy with memory.
StateSpace chain_space(const model::Model& model, const model::ControlPolicy& policy);

// The sojourn means of `sojourn` and then the cost (2) into `m`, whose measures of the stationary
// vector are in place.
void add_sojourn_means_and_cost(const model::Costs& costs, const SojournTimes& sojourn,
                                Measures& m);

// Thrown by a search when a policy's stationary solve stops unconverged: the method failed the
// chain, not the policy (api turns it into advice on --method).
class StationaryFailure : public std::runtime_error {
 public:
  explicit StationaryFailure(StationarySummary summary)
      : std::runtime_error("stationary solve failed: " + summary.message),
        summary_(std::move(summary)) {}
  const StationarySummary& summary() const { return summary_; }

 private:
  StationarySummary summary_;
};

// Solves many policies of one model, sharing what does not depend on the policy (the tagged-page
// chain and its factorisation).
class PolicyEvaluator {
 public:
  // `solve_threads`: threads inside each iterative solve (one policy at a time); the answer does
  // not depend on it. Policy searches keep 1 and solve policies side by side instead. `stop`: set
  // from another thread to cancel a long solve (it comes back failed, "cancelled").
  PolicyEvaluator(const model::Model& model, Method method = Method::kAuto, int solve_threads = 1,
                  const std::atomic<bool>* stop = nullptr);
  // `warm_start`: a stationary vector of a neighbouring policy of this model, where the iterative
  // solver starts (the direct methods ignore it); nullptr for a cold start.
  PolicyEvaluation evaluate(const model::ControlPolicy& policy,
                            const Eigen::VectorXd* warm_start = nullptr) const;
  // The sojourn-time laws of an evaluated policy (needs the stationary vector of `evaluation`).
  SojournTimes sojourn_times(const PolicyEvaluation& evaluation) const;
  // Each evaluation then keeps its laws (PolicyEvaluation::sojourn_laws): for one policy whose
  // quantiles or distribution functions are asked for, not for a search's many.
  void keep_sojourn_laws(bool keep) { keep_laws_ = keep; }
  const model::Model& model() const { return model_; }
  // The tagged page's chain (it depends on the service, the clocks and K alone), built on first
  // use: after the first stationary solve, whose vectors are then freed, so that the two never hold
  // memory at once (at K = 24 the chain's vectors are 2 GiB beside the solve's 5).
  const TaggedPageChain& tagged_chain() const;
  // Wall time of building the tagged page's chain and its moment vectors (once, for every policy;
  // 0 until built).
  double chain_seconds() const { return chain_seconds_; }
  // The chain under full-state policies (built on first use: it assembles the N constant
  // generators).
  // `threads`: to assemble it, when this is the first use (at least the evaluator's own).
  const FullStateChain& full_state_chain(int threads = 1) const;

 private:
  const model::Model& model_;
  Method method_;
  int solve_threads_;
  const std::atomic<bool>* stop_;
  bool keep_laws_ = false;
  mutable std::once_flag chain_built_;
  mutable double chain_seconds_ = 0;
  mutable std::unique_ptr<TaggedPageChain> chain_;
  std::unique_ptr<BlockRecursionCache> cache_;
  // The policy-free blocks, by number of environment phases (a memory policy has more).
  std::shared_ptr<const PolicyFreeBlocks> policy_free(Eigen::Index environment_phases) const;
  mutable std::mutex policy_free_mutex_;
  mutable std::map<Eigen::Index, std::shared_ptr<const PolicyFreeBlocks>> policy_free_;
  mutable std::once_flag full_state_built_;
  mutable std::unique_ptr<FullStateChain> full_state_;

  PolicyEvaluation evaluate_table(const model::TablePolicy& table,
                                  const Eigen::VectorXd* warm_start) const;
  // The sojourn means from the tagged page's chain, then the cost (2), once the measures of the
  // stationary vector are in `e`.
  void add_sojourn_means_and_cost(PolicyEvaluation& e) const;
};

}  // namespace crawlq::analytic
