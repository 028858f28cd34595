#pragma once
// Everything `crawlq refresh` reports for one scenario: the policy's access frequencies and exact
// obsolescence rates, its cost, the lower bound over all policies, the best randomized policy, and
// for golden-ratio policies the cycle and the asymptotic ratio of CLW Corollary 5.1.
#include <limits>
#include <vector>

#include "analytic/refresh/refresh_optimization.hpp"
#include "model/refresh_model.hpp"

namespace crawlq::analytic {

struct RefreshAnalysis {
  std::vector<model::LaplaceValue> laplace;  // h_i in the forms the formulas use
  std::vector<double> h;                     // E exp(-mu_i X) (0 where it underflows)
  double mean_access_time = 0;               // E[X]
  std::vector<double> frequencies;  // the policy's f_i (golden ratio: the target the cycle rounds)
  std::vector<int> cycle;           // cyclic and golden-ratio: one cycle of page indices
  std::vector<long> cycle_counts;   // golden ratio: M_i
  std::vector<double> obsolescence_rates;  // r_i, exact
  double cost = 0;                         // sum c_i r_i
  double cost_over_lower_bound = 0;        // C / C*, finite where both underflow
  RefreshOptimum lower_bound;              // problem CLW (7)
  RandomizedOptimum randomized;            // problem CLW (12)
  double change_per_read = 0;              // q = mu E[X]
  double golden_ratio_limit = 0;           // H(q) of CLW Corollary 5.1 (meaningful for c_i ~ mu_i)
};

// A golden-ratio policy reads the file's cycle, or else the shortest Fibonacci cycle from the
// default for N pages on (model::default_golden_ratio_cycle) in which every page is read. Throws
// std::invalid_argument, its message starting with the cycle, when that cycle leaves a page unread
// or would need more than `available_bytes` (checked before the cycle is built).
RefreshAnalysis analyze_refresh(const model::RefreshModel& model,
                                double available_bytes = std::numeric_limits<double>::infinity());

// The bytes analysing and printing a golden-ratio cycle of `cycle_length` reads takes: it is held
// as pages, sorted as (frac(j / phi), j) pairs and printed as JSON.
double refresh_analysis_bytes(const model::RefreshModel& model, long cycle_length);

}  // namespace crawlq::analytic
