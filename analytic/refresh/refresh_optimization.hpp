#pragma once
// The optimal access frequencies of Coffman, Liu, Weber (1998):
// - problem CLW (7), whose optimum bounds the cost of every policy from below (CLW Theorem 3.3):
//   closed form CLW (6) and CLW (10) when c_i is proportional to mu_i, otherwise the Lagrange
//   condition CLW (8) solved by a one-dimensional root search on the multiplier;
// - problem CLW (12), the best randomized policy: CLW (16) when c_i is proportional to mu_i,
//   otherwise CLW (15), valid when the condition after CLW (16) holds, and the constrained optimum
//   (some pages never read by choice) when it does not.
// Everything is computed from logarithms (of l_i = -ln h_i, of 1/h_i - 1, of c_i / (mu_i E[X])), so
// that pages with h_i ~ 0 or mu_i E[X] ~ 1e-300 stay finite.
#include <vector>

#include "model/refresh_model.hpp"

namespace crawlq::analytic {

struct RefreshOptimum {
  std::vector<double> frequencies;         // x_i, summing to 1
  std::vector<double> obsolescence_rates;  // each page's term of the objective at x, over c_i
  double cost = 0;                         // the objective at x: sum c_i r_i
  double multiplier = 0;                   // lambda of the Lagrange condition
  // c_i proportional to mu_i: CLW (10) and CLW (6), or CLW (16) and CLW (11).
  bool closed_form = false;
};

struct RandomizedOptimum : RefreshOptimum {
  // The condition after CLW (16):
  // min sqrt(c_i/mu_i) >= sum sqrt(c_i/mu_i)(1/h_i - 1) / (1 + sum (1/h_i - 1)).
  // When it fails, CLW (15) gives some page a negative frequency and the optimum reads it with
  // frequency 0 instead.
  bool validity_condition_holds = true;
};

using LaplaceValues = std::vector<model::LaplaceValue>;

// The objective of CLW (7) at x (the lower bound on r_i of CLW Theorem 3.3, weighted), and its
// optimum.
double bound_objective(const model::RefreshModel& model, const LaplaceValues& h,
                       const std::vector<double>& x);
RefreshOptimum refresh_lower_bound(const model::RefreshModel& model, const LaplaceValues& h);
// The same optimum by the general root search even when a closed form exists (for checking).
RefreshOptimum refresh_lower_bound_by_search(const model::RefreshModel& model,
                                             const LaplaceValues& h);

// The objective of CLW (12) at x: the cost of the randomized policy with frequencies x
// (CLW Lemma 4.1).
double randomized_objective(const model::RefreshModel& model, const LaplaceValues& h,
                            const std::vector<double>& x);
RandomizedOptimum optimal_randomized_frequencies(const model::RefreshModel& model,
                                                 const LaplaceValues& h);

// CLW Corollary 5.1: H(q), the limit of C(golden ratio) / C* for q = mu E[X] as N grows;
// decreasing in q towards 1, at most 2 phi^2 / 5 < 1.05 (its value at q -> 0).
double golden_ratio_limit_ratio(double q);
double two_phi_squared_over_five();

}  // namespace crawlq::analytic
