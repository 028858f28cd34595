#pragma once
// One policy solved end to end: stationary vector, measures, sojourn means and the cost (2).
#include <memory>

#include "analytic/block_recursive_solver.hpp"
#include "analytic/measures.hpp"
#include "analytic/sojourn_times.hpp"
#include "analytic/stationary_solver.hpp"
#include "analytic/tagged_page_chain.hpp"

namespace crawlq::analytic {

struct PolicyEvaluation {
  model::ControlPolicy policy;
  StationaryResult stationary;
  Measures measures;  // every one, the sojourn means and the cost (2) included
};

// Solves many policies of one model, sharing what does not depend on the policy (the tagged-page
// chain and its factorisation).
class PolicyEvaluator {
 public:
  // `solve_threads`: threads inside each iterative solve (one policy at a time); the answer does not
  // depend on it. Policy searches keep 1 and solve policies side by side instead.
  // `stop`: set from another thread to cancel a long solve (it comes back failed, "cancelled").
  PolicyEvaluator(const model::Model& model, Method method = Method::kAuto, int solve_threads = 1,
                  const std::atomic<bool>* stop = nullptr);
  // `warm_start`: a stationary vector of a neighbouring policy of this model, where the iterative
  // solver starts (the direct methods ignore it); nullptr for a cold start.
  PolicyEvaluation evaluate(const model::ControlPolicy& policy,
                            const Eigen::VectorXd* warm_start = nullptr) const;
  // The sojourn-time laws of an evaluated policy (needs the stationary vector of `evaluation`).
  SojournTimes sojourn_times(const PolicyEvaluation& evaluation) const;
  const model::Model& model() const { return model_; }

 private:
  const model::Model& model_;
  Method method_;
  int solve_threads_;
  const std::atomic<bool>* stop_;
  TaggedPageChain chain_;
  std::unique_ptr<BlockRecursionCache> cache_;
};

}  // namespace crawlq::analytic
