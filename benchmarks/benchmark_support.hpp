#pragma once
// What the benchmark programs share: one guard around main, the --threads option, the paper's
// optimum shape, and wall-clock medians (never asserted in tests).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <vector>

#include "model/input_error.hpp"
#include "model/policy.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq::benchmarks {

struct Timing {
  double median, min, max;
  int runs;
};

// --threads t: `threads` set to its default, $CRAWLQ_THREADS, else 2; `what` says what the threads
// share.
inline void add_threads_option(CLI::App& app, int& threads, const std::string& what) {
  threads = 2;
  if (const char* variable = std::getenv("CRAWLQ_THREADS")) threads = std::atoi(variable);
  app.add_option("--threads", threads, what + " (default: $CRAWLQ_THREADS, else 2)")
      ->check(CLI::NonNegativeNumber);
}

// The paper's first example's optimum at K = 5, 3 robots up to 2 pages then 1, at capacity K: the
// policy every "at scale" benchmark solves under.
inline model::Policy paper_optimum_shape(int capacity) {
  return model::Policy::from_thresholds({-1, 2, 2}, 4, capacity);
}

// Parses the arguments declared on `app`, then runs `body`, as every program the project builds
// does:
// --help prints the usage (exit 0); a bad argument or bad input prints one message (exit 2);
// nothing escapes as an uncaught exception.
inline int run_benchmark(CLI::App& app, int argc, char** argv, const std::function<void()>& body) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "{}: {} (see {} --help)\n", app.get_name(), e.what(), app.get_name());
    return 2;
  }
  try {
    body();
    return 0;
  } catch (const model::InputError& e) {  // a scenario file's errors too
    fmt::print(stderr, "{}: {}\n", app.get_name(), e.what());
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "{}: {}\n", app.get_name(), e.what());
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: internal error: {}\n", app.get_name(), e.what());
    return 1;
  }
  return 2;
}

// Runs `body` at least `min_runs` times and until `min_seconds` have passed.
inline Timing time_runs(const std::function<void()>& body, int min_runs, double min_seconds) {
  std::vector<double> seconds;
  const auto start = std::chrono::steady_clock::now();
  while (static_cast<int>(seconds.size()) < min_runs ||
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
             min_seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    body();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(seconds.begin(), seconds.end());
  return {seconds[seconds.size() / 2], seconds.front(), seconds.back(),
          static_cast<int>(seconds.size())};
}

}  // namespace crawlq::benchmarks
