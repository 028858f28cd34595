#pragma once
// Everything `crawlq refresh` reports for one scenario: the policy's access frequencies and exact
// obsolescence rates, its cost, the lower bound over all policies, the best randomized policy, and
// for golden-ratio policies the cycle and the asymptotic ratio of Corollary 5.1.
#include <vector>

#include "analytic/refresh_optimization.hpp"
#include "model/refresh_model.hpp"

namespace crawlq::analytic {

struct RefreshAnalysis {
  std::vector<double> h;            // E exp(-mu_i X)
  double mean_access_time = 0;      // E[X]
  std::vector<double> frequencies;  // the policy's f_i (golden ratio: the target the cycle rounds)
  std::vector<int> cycle;           // cyclic and golden-ratio: one cycle of page indices
  std::vector<long> cycle_counts;   // golden ratio: M_i
  std::vector<double> obsolescence_rates;  // r_i, exact
  double cost = 0;                         // sum c_i r_i
  RefreshOptimum lower_bound;              // problem (7)
  RandomizedOptimum randomized;            // problem (12)
  double total_change_rate = 0;            // mu
  double golden_ratio_limit = 0;           // H(mu E[X]) of Corollary 5.1 (meaningful for c_i ~ mu_i)
};

// Throws std::invalid_argument when the golden-ratio cycle cannot read every page.
RefreshAnalysis analyze_refresh(const model::RefreshModel& model);

}  // namespace crawlq::analytic
