#pragma once
// The statistics section 7 fits to: the mean, variance, squared coefficient of variation and lag-k
// correlations of the times between batches, each correlation taken within runs of the log that no
// censored gap cuts.
#include <vector>

namespace crawlq::fit {

struct SampleStatistics {
  long size = 0;
  double mean = 0, variance = 0, scv = 0;
  std::vector<double> lag_correlations;  // [k-1]: lag k
  // Half-width of the 95% band a sample of independent times would give each correlation, 1.96 /
  // sqrt(n - k): a correlation inside it is not told apart from none.
  std::vector<double> lag_bands;
};

SampleStatistics sample_statistics(const std::vector<std::vector<double>>& runs, int lags);

}  // namespace crawlq::fit
