#include "fit/block_bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace crawlq::fit {

int bootstrap_block_length(std::size_t batches, int lags, double decay) {
  const double n = static_cast<double>(batches);
  const double correlated = std::abs(decay) < 1 ? 4 / (1 - std::abs(decay)) : n;
  const double wanted =
      std::max({std::ceil(std::cbrt(n)), static_cast<double>(lags) + 1, std::ceil(correlated)});
  return static_cast<int>(std::clamp(wanted, 1.0, std::max(1.0, std::floor(n / 5))));
}

BatchedLog block_resample(const model::ArrivalTrace& trace, int block_length, std::uint64_t seed,
                          int replicate) {
  const std::size_t n = trace.gaps.size();
  const std::size_t length = std::clamp<std::size_t>(block_length, 1, n);
  // std::mt19937_64's output is fixed by the standard; the draw of a start from it is written out
  // here, since the standard library's distributions differ between implementations.
  std::mt19937_64 engine(seed ^
                         (0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(replicate) + 1)));
  const std::size_t starts = n - length + 1;
  BatchedLog log;
  std::vector<double> run;
  run.reserve(n);
  std::vector<long> pages;
  while (run.size() < n) {
    const auto start = static_cast<std::size_t>(static_cast<double>(engine() >> 11) * 0x1.0p-53 *
                                                static_cast<double>(starts));
    for (std::size_t i = start; i < start + length && run.size() < n; ++i) {
      run.push_back(trace.gaps[i]);
      const auto size = static_cast<std::size_t>(trace.sizes[i]);
      if (pages.size() < size) pages.resize(size, 0);
      ++pages[size - 1];
      log.units += trace.sizes[i];
    }
  }
  // The batch that starts the first time between batches is there to count them, as in a log; the
  // shares of batch sizes are the drawn batches'.
  log.batches = static_cast<long>(n) + 1;
  log.size_probabilities.reserve(pages.size());
  for (const long count : pages)
    log.size_probabilities.push_back(static_cast<double>(count) / static_cast<double>(n));
  log.intervals = {std::move(run)};
  return log;
}

}  // namespace crawlq::fit
