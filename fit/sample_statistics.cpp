#include "fit/sample_statistics.hpp"

#include <cmath>

namespace crawlq::fit {

SampleStatistics sample_statistics(const std::vector<std::vector<double>>& runs, int lags) {
  SampleStatistics s;
  double sum = 0;
  for (const auto& run : runs)
    for (const double x : run) {
      sum += x;
      ++s.size;
    }
  if (s.size == 0) return s;
  s.mean = sum / static_cast<double>(s.size);
  double squares = 0;
  for (const auto& run : runs)
    for (const double x : run) squares += (x - s.mean) * (x - s.mean);
  s.variance = s.size > 1 ? squares / static_cast<double>(s.size - 1) : 0;
  s.scv = s.mean != 0 ? s.variance / (s.mean * s.mean) : 0;
  const double centred_variance = squares / static_cast<double>(s.size);
  for (int k = 1; k <= lags; ++k) {
    double products = 0;
    long pairs = 0;
    for (const auto& run : runs)
      for (std::size_t i = static_cast<std::size_t>(k); i < run.size(); ++i) {
        products += (run[i] - s.mean) * (run[i - static_cast<std::size_t>(k)] - s.mean);
        ++pairs;
      }
    s.lag_correlations.push_back(pairs > 0 && centred_variance > 0
                                     ? products / static_cast<double>(pairs) / centred_variance
                                     : 0);
    s.lag_bands.push_back(pairs > 0 ? 1.96 / std::sqrt(static_cast<double>(pairs)) : 0);
  }
  return s;
}

}  // namespace crawlq::fit
