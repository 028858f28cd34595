#pragma once
// Stationary performance measures of section 4 from the vector p.
#include <Eigen/Core>
#include <vector>

#include "analytic/stationary/generator_blocks.hpp"
#include "model/measure_list.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

using Measures = model::MeasureSet<double>;

// The measures of the stationary vector alone; the sojourn means and the cost, which need the
// tagged page's chain, stay 0 (PolicyEvaluator fills them). `space` is the chain's, whose arrival
// phases are those of `arrivals`' environment.
Measures compute_measures(const model::Model& model, const ControlledArrivals& arrivals,
                          const StateSpace& space, const Eigen::VectorXd& p);

}  // namespace crawlq::analytic
