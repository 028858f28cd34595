// The log-to-model pipeline's speed: a log simulated from a correlated MAP of batches (the fit's
// own two-regime form, mean 212 as the paper's data, lag-1 correlation 0.6), written to a temporary
// file, then read, cut into batches, summarised and fitted (moments), as `crawlq fit arrivals`
// does. Usage: fit_speed [LINES ...]   (default: 65080, the paper's log, and 10,000,000)
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "benchmark_support.hpp"
#include "fit/batched_log.hpp"
#include "fit/map_statistics.hpp"
#include "fit/regime_map_fit.hpp"
#include "fit/sample_statistics.hpp"
#include "fit/timestamp_log.hpp"
#include "model/elapsed.hpp"

namespace {

using crawlq::model::seconds_since;

// `lines` deliveries from the regimes' MAP fitted to the paper's statistics, in batches of 1-4.
void write_log(const std::string& path, long lines) {
  using namespace crawlq;
  const fit::RegimeMapFit map = fit::fit_regime_map(
      212.03, 51352.38, {0.622, 0.574, 0.555, 0.537, 0.523, 0.507}, std::vector<double>(6, 0.01));
  std::mt19937_64 engine(1);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::ofstream out(path);
  const Eigen::Index n = map.d0.rows();
  Eigen::Index phase = 0;
  double time = 0;
  for (long written = 0; written < lines;) {
    const double rate = -map.d0(phase, phase);
    time += -std::log(1 - uniform(engine)) / rate;
    double pick = uniform(engine) * rate;
    for (Eigen::Index j = 0; j < 2 * n; ++j) {
      const double r = j < n ? (j == phase ? 0.0 : map.d0(phase, j)) : map.d1(phase, j - n);
      if (pick < r) {
        phase = j % n;
        if (j >= n) {
          const int size = 1 + static_cast<int>(uniform(engine) * 4);
          for (int k = 0; k < size && written < lines; ++k, ++written)
            out << fmt::format("{:.6f}\n", time + 1e-4 * k);
        }
        break;
      }
      pick -= r;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace crawlq;
  CLI::App app(
      "The log-to-model pipeline's speed: a simulated crawler log read, batched, summarised and "
      "fitted.",
      "fit_speed");
  std::vector<long> sizes{65080, 10'000'000};
  app.add_option("LINES", sizes, "log sizes to time (default: 65080 10000000)")
      ->check(CLI::Range(2L, 100'000'000L));
  return benchmarks::run_benchmark(app, argc, argv, [&] {
    for (const long lines : sizes) {
      const std::string path =
          (std::filesystem::temp_directory_path() / fmt::format("crawlq-fit-speed-{}.log", lines))
              .string();
      write_log(path, lines);
      const auto start = std::chrono::steady_clock::now();
      const std::vector<double> times = fit::read_timestamps(path);
      const double read = seconds_since(start);
      const double gap = fit::default_batch_gap(times);
      const fit::BatchedLog log =
          fit::split_batches(times, gap, fit::default_censor_gap(times, gap));
      const fit::SampleStatistics sample = fit::sample_statistics(log.intervals, 6);
      const double summarised = seconds_since(start);
      const fit::RegimeMapFit map = fit::fit_regime_map(sample.mean, sample.variance,
                                                        sample.lag_correlations, sample.lag_bands);
      const double likelihood = fit::map_log_likelihood(map.d0, map.d1, log.intervals);
      const double total = seconds_since(start);
      std::remove(path.c_str());
      fmt::print(
          "{:>10} lines: read {:.2f} s, batched and summarised {:.2f} s, fitted with its "
          "log-likelihood {:.2f} s "
          "({} batches, lag-1 {:.3f}, log L {:.6g})\n",
          lines, read, summarised, total, log.batches, sample.lag_correlations[0], likelihood);
    }
  });
}
