#pragma once
// Wall-clock medians for the benchmark programs (never asserted in tests).
#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace crawlq::benchmarks {

struct Timing {
  double median, min, max;
  int runs;
};

// Runs `body` at least `min_runs` times and until `min_seconds` have passed.
inline Timing time_runs(const std::function<void()>& body, int min_runs, double min_seconds) {
  std::vector<double> seconds;
  const auto start = std::chrono::steady_clock::now();
  while (static_cast<int>(seconds.size()) < min_runs ||
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < min_seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    body();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(seconds.begin(), seconds.end());
  return {seconds[seconds.size() / 2], seconds.front(), seconds.back(), static_cast<int>(seconds.size())};
}

}  // namespace crawlq::benchmarks
