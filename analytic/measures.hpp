#pragma once
// Stationary performance measures of section 4 from the vector p.
#include <Eigen/Core>
#include <vector>

#include "analytic/generator_blocks.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

struct Measures {
  double lambda = 0;              // (9): pages offered per unit time
  double p_loss = 0;              // lost pages per unit time / lambda (the printed (8) is garbled)
  double p_obsolete = 0;          // (14)
  double p_served = 0;            // (15), P_success
  double p_starvation = 0;        // (5)
  double mean_active_robots = 0;  // (6)
  double mean_in_system = 0;
  double mean_in_queue = 0;
  std::vector<double> level_probabilities;  // levels 0..K
  std::vector<double> mode_probabilities;   // (7): entry r-1 for r robots
};

Measures compute_measures(const model::Model& model, const model::Policy& policy,
                          const StateSpace& space, const Eigen::VectorXd& p);

}  // namespace crawlq::analytic
