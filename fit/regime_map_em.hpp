#pragma once
// Maximum likelihood for the regimes' MAP (regime_map_fit.hpp) by EM: the times between batches as
// a hidden Markov chain of regimes, each regime's time Erlang of a shape k common to all, the
// chain's transition matrix P free (not only "keep or draw afresh"). Baum-Welch: forward-backward
// with scaling for the E step; P, the first regime and each regime's rate in closed form for the M
// step. The likelihood never falls from one iteration to the next. The MAP: D0 the regimes' Erlang
// chains, D1 from the end of regime i's chain to the start of j's with P_ij.
#include <vector>

#include "model/linear_algebra.hpp"

namespace crawlq::fit {

struct RegimeMapEm {
  model::Matrix d0, d1;
  std::vector<double> log_likelihoods;  // of the hidden chain's own start, after each iteration
  bool converged = false;
  int shape = 1;
  std::vector<double> means;  // each regime's mean time
  model::Matrix transitions;  // P
  model::RowVector start;     // the first regime's law
};

// `runs`: the times between batches (batched_log.hpp). Starts from `means` and `transitions`
// (regimes = means.size()).
RegimeMapEm fit_regime_map_em(const std::vector<std::vector<double>>& runs, int shape,
                              std::vector<double> means, model::Matrix transitions,
                              int most_iterations = 300);

// The log-likelihood of `runs` under regimes of these means (Erlang of `shape`), first law `start`
// and transition matrix P: what the EM climbs, for the likelihood's curvature.
double regime_map_log_likelihood(const std::vector<std::vector<double>>& runs, int shape,
                                 const std::vector<double>& means, const model::RowVector& start,
                                 const model::Matrix& transitions);

}  // namespace crawlq::fit
