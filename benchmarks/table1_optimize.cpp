// The full optimisation behind Table 1 (84 threshold vectors of the paper's example, N = 4, K = 5):
// best policy, best per mode set and constant costs. Target: under 50 ms.
// Usage: table1_optimize [scenario.yaml] [threads]
#include <fmt/format.h>

#include "analytic/control/policy_search.hpp"
#include "benchmark_support.hpp"
#include "scenarios/scenario_loader.hpp"

int main(int argc, char** argv) {
  using namespace crawlq;
  CLI::App app(
      "The full optimisation behind Table 1: every threshold vector, the best per mode set and the\n"
      "constant costs, timed over repeated runs.",
      "table1_optimize");
  std::string file = CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml";
  int threads = 0;
  app.add_option("scenario", file, "scenario file (default: the paper's first example)");
  app.add_option("threads", threads, "policies solved at once (0: all cores)")
      ->check(CLI::NonNegativeNumber);
  return benchmarks::run_benchmark(app, argc, argv, [&] {
    const auto scenario = scenarios::load_scenario(file);
    double best = 0;
    std::int64_t solved = 0;
    // A fresh evaluator each run: the tagged-page chain and the level-factor cache are part of the
    // cost.
    const auto timing = benchmarks::time_runs(
        [&] {
          const analytic::PolicyEvaluator evaluator(scenario.model);
          const auto search = analytic::optimize_thresholds(evaluator, threads);
          best = search.best.cost;
          solved = search.policies_solved;
        },
        20, 2.0);
    fmt::print(
        "table 1 optimisation ({}, {} policies, threads {}): median {:.2f} ms (min {:.2f}, max {:.2f}, "
        "{} runs), best cost {:.4f}\n",
        file, solved, threads == 0 ? std::string("all") : std::to_string(threads),
        1e3 * timing.median, 1e3 * timing.min, 1e3 * timing.max, timing.runs, best);
  });
}
