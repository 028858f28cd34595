#pragma once
// A MAP of batches matched to a sample's mean, variance and lag correlations (the paper's route of
// moment matching, taken further than its two phases can go).
//
// The times come from one of two regimes, each a phase-type law of the same squared coefficient of
// variation w with its own mean mu_j; after each time the regime is kept with probability rho and
// otherwise drawn afresh from (p, 1 - p). Then corr(X_0, X_k) = A rho^k with A = Var(mu_J) /
// Var(X): the lag correlations decay geometrically from any height below 1, where a MAP whose
// phases are its only memory (the paper's, with a hyperexponential marginal of scv c^2) cannot pass
// (c^2 - 1) / (2 c^2), 0.061 for the paper's data.
//
// Fitted exactly: the mean, the variance and the lag-1 correlation; rho by least squares on the
// logarithms of the positive lag correlations. A negative lag-1 correlation takes rho < 0: regimes
// that tend to alternate, lag correlations of alternating sign (what a MAP of order 2 with a
// negative lag-1 correlation has, c gamma^k with gamma < 0); the rarer regime's chance to stay,
// (1 - rho) p + rho, bounds rho from below. The regimes' laws are exponential (w = 1),
// hyperexponential with balanced means (w > 1) or a mixture of Erlang(k-1) and Erlang(k) of one
// rate (w < 1, Tijms), so the order is 2 for a renewal sample with scv >= 1 and at most 2k
// otherwise.
#include <string>
#include <vector>

#include "model/linear_algebra.hpp"

namespace crawlq::fit {

struct RegimeMapFit {
  model::Matrix d0, d1;
  double correlation_height = 0;  // A
  double correlation_decay = 0;   // rho
  std::vector<double> regime_means;
  double regime_share = 1;  // p
  double regime_scv = 1;    // w
  std::string note;         // what could not be matched, empty when everything was
};

// `lags` and `bands` from sample_statistics: a correlation inside its band counts as none.
// `most_phases`: the MAP's order at most (each regime's law gets half; 2 at least), else up to 100.
RegimeMapFit fit_regime_map(double mean, double variance, const std::vector<double>& lags,
                            const std::vector<double>& bands, int most_phases = 0);

// A phase-type law (alpha, T) of mean `mean` and squared coefficient of variation `scv`:
// exponential, balanced-means hyperexponential, or the Erlang mixture above (at most `most_phases`
// phases).
void phase_type_with(double mean, double scv, int most_phases, model::RowVector& alpha,
                     model::Matrix& t);

}  // namespace crawlq::fit
