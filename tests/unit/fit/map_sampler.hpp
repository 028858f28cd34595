#pragma once
// Logs simulated from a known MAP of batches, for the round trips of the fit tests: the phase
// process of (D0, D1) run event by event, each arrival a batch of `sizes` pages 1e-9 apart.
#include <random>
#include <vector>

#include "model/linear_algebra.hpp"

namespace crawlq::fit_test {

inline std::vector<double> map_times(const model::Matrix& d0, const model::Matrix& d1, int arrivals,
                                     std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const Eigen::Index n = d0.rows();
  Eigen::Index phase = 0;
  double time = 0;
  std::vector<double> times;
  while (static_cast<int>(times.size()) < arrivals) {
    const double rate = -d0(phase, phase);
    time += -std::log(1 - uniform(engine)) / rate;
    double pick = uniform(engine) * rate;
    bool arrival = false;
    Eigen::Index next = phase;
    for (Eigen::Index j = 0; j < 2 * n; ++j) {
      const double r = j < n ? (j == phase ? 0.0 : d0(phase, j)) : d1(phase, j - n);
      if (pick < r) {
        next = j % n;
        arrival = j >= n;
        break;
      }
      pick -= r;
    }
    phase = next;
    if (arrival) times.push_back(time);
  }
  return times;
}

// Batch starts -> deliveries: each batch of 1..sizes.size() pages with probabilities `sizes`.
inline std::vector<double> with_batches(const std::vector<double>& starts,
                                        const std::vector<double>& sizes, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::discrete_distribution<int> size(sizes.begin(), sizes.end());
  std::vector<double> times;
  for (const double t : starts)
    for (int k = 0; k <= size(engine); ++k) times.push_back(t + 1e-9 * k);
  return times;
}

}  // namespace crawlq::fit_test
