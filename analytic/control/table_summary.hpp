#pragma once
// A full-state policy read by a person: for each level and arrival phase, the robots most of its
// states run (weighted by the stationary probability when given) and the share that runs them.
// When every share is 1 the table is a phase-aware policy; when the phases agree too, a level map.
#include <Eigen/Core>
#include <vector>

#include "analytic/stationary/state_space.hpp"

namespace crawlq::analytic {

struct TableSummary {
  std::vector<std::vector<int>> robots;    // [level][arrival phase]
  std::vector<std::vector<double>> share;  // of the states (or of their probability) that agree
  bool phase_aware() const;                // every share is 1
};

TableSummary summarize_table(const StateSpace& space, const std::vector<int>& robots, int modes,
                             const Eigen::VectorXd* probabilities = nullptr);

}  // namespace crawlq::analytic
