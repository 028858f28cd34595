#pragma once
// What a MAP (D0, D1) says about the times between its arrivals: mean, variance, squared
// coefficient of variation, lag-k correlations, and the log-likelihood of a sample of such times.
#include <vector>

#include "model/linear_algebra.hpp"

namespace crawlq::fit {

struct MapStatistics {
  double mean = 0, variance = 0, scv = 0;
  std::vector<double> lag_correlations;  // [k-1]: lag k
};

// pi of the phase at arrivals: pi P = pi with P = (-D0)^-1 D1; then E[X^n] = n! pi (-D0)^-n e and
// E[X_0 X_k] = pi (-D0)^-1 P^k (-D0)^-1 e.
MapStatistics map_statistics(const model::Matrix& d0, const model::Matrix& d1, int lags);

// log L of the runs (each starting from the phase distribution at arrivals): the forward recursion
// v <- v exp(D0 x) D1, rescaled at each step.
double map_log_likelihood(const model::Matrix& d0, const model::Matrix& d1,
                          const std::vector<std::vector<double>>& runs);

// The quantiles of the time between arrivals (the marginal, PH(pi, D0)) at each probability in (0,
// 1), by bisection on F(x) = 1 - pi exp(D0 x) e.
std::vector<double> map_interval_quantiles(const model::Matrix& d0, const model::Matrix& d1,
                                           const std::vector<double>& probabilities);

}  // namespace crawlq::fit
