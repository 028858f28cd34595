#pragma once
// The distribution of the chain at given times from a given start, p(t) = p(0) exp(Q t), with the
// expected counts over [0, t] (offered, lost, obsolete, served pages) and the cost accumulated, by
// uniformisation on the matrix-free generator. An outage of the indexer during [0, D) runs the
// chain with the service clock stopped (model::PhaseType::paused) and then the chain itself.
#include <Eigen/Core>
#include <vector>

#include "analytic/transient/transient_options.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

// The time until the level first drops to `level` or below, from a start (with the outage of
// `options`): its mean and its distribution function at options.times.
struct DrainResult {
  int level = 0;
  double mean = 0;
  std::vector<double> cdf;  // P(drained by t), one per time
  int iterations = 0;       // of the linear solve for the mean
  double residual = 0;      // its relative residual
  double truncation_error = 0;
};
DrainResult drain_analysis(const model::Model& model, const model::ControlPolicy& policy,
                           const Eigen::VectorXd& start, int level,
                           const TransientOptions& options);

// `start`: a distribution over the states of the chain of (`model`, `policy`) (analytic::
// chain_space's order), such as TransientChain::empty_start() or a stationary vector.
TransientResult transient_analysis(const model::Model& model, const model::ControlPolicy& policy,
                                   const Eigen::VectorXd& start, const TransientOptions& options);

}  // namespace crawlq::analytic
