#pragma once
// The gradient of each scalar measure of one policy with respect to the stationary vector p, the
// model held fixed: the right-hand sides of the adjoint sensitivities (stationary_adjoint.hpp).
// Every measure is a function of a few sums that are linear in p (pages offered, lost, served and
// expired, robots, levels, and the arriving page's moments in the tagged page's chain), so each
// gradient is a combination of those sums' per-state weights.
#include <Eigen/Core>
#include <vector>

#include "analytic/sojourn/tagged_page_chain.hpp"
#include "analytic/stationary/controlled_arrivals.hpp"
#include "analytic/stationary/measures.hpp"
#include "analytic/stationary/state_space.hpp"
#include "model/costs.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

// The cost (2)'s partial derivative by each scalar measure at `at`, in scalar_measures' order (its
// own 0): the cost is linear in each measure alone, so a unit step gives each exactly.
std::vector<double> cost_partials(const model::Costs& costs, const Measures& at);

// One gradient per entry of model::scalar_measures<double>(), in that order, each of p's size, but
// the cost's, which is empty (the cost's derivative is the others' weighed by cost_partials).
// `at` holds every measure at p; `chain` is the model's tagged page's chain.
std::vector<Eigen::VectorXd> measure_gradients(const model::Model& model,
                                               const ControlledArrivals& arrivals,
                                               const StateSpace& space,
                                               const TaggedPageChain& chain,
                                               const Eigen::VectorXd& p, const Measures& at);

}  // namespace crawlq::analytic
