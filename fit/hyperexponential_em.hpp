#pragma once
// Maximum likelihood for a sample of times by EM over hyperexponential laws (n exponentials mixed):
// the diagonal case of Asmussen, Nerman and Olsson's EM for phase-type laws (the paper's reference
// [2]), whose E step needs no matrix exponential. Each iteration cannot lower the likelihood; it
// stops when the gain falls below a relative 1e-10 or after the iterations allowed.
#include <vector>

#include "model/linear_algebra.hpp"

namespace crawlq::fit {

struct EmFit {
  model::RowVector beta;
  model::Matrix s;                      // diagonal: minus the rates
  std::vector<double> log_likelihoods;  // after each iteration, the start first
  bool converged = false;
};

// `sample`: times > 0, at least two; 1 <= phases <= 20.
EmFit fit_hyperexponential_em(const std::vector<double>& sample, int phases,
                              int most_iterations = 2000);

}  // namespace crawlq::fit
