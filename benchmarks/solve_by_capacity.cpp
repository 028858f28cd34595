// One stationary solve of the paper's example per capacity K (R = 2, W = M = 2: 2(1 + 2(2^K - 1))
// states), policy 3 robots up to level 2 then 1, with the block recursion and with SparseLU on
// the assembled generator, side by side.
// Usage: solve_by_capacity [K_min] [K_max]
#include <fmt/format.h>

#include "analytic/generator_blocks.hpp"
#include "analytic/stationary_solver.hpp"
#include "benchmark_support.hpp"
#include "scenarios/scenario_loader.hpp"

int main(int argc, char** argv) {
  using namespace crawlq;
  const int k_min = argc > 1 ? std::stoi(argv[1]) : 5;
  const int k_max = argc > 2 ? std::stoi(argv[2]) : 11;
  const auto scenario = scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml");
  fmt::print("{:>3} {:>8} | {:>17} {:>10} | {:>17} {:>10} | {:>9}\n", "K", "states", "block-recursion s",
             "residual", "sparse-lu s", "residual", "max |dp|");
  for (int k = k_min; k <= k_max; ++k) {
    model::Model m = scenario.model;
    m.capacity = k;
    const auto policy = model::Policy::from_thresholds({-1, 2, 2}, 4, k);
    const analytic::GeneratorBlocks blocks(m, policy);
    analytic::StationaryResult results[2];
    benchmarks::Timing timings[2];
    const analytic::Method methods[] = {analytic::Method::kBlockRecursion, analytic::Method::kSparseLu};
    for (int i = 0; i < 2; ++i)
      timings[i] = benchmarks::time_runs([&] { results[i] = analytic::solve_stationary(blocks, methods[i]); },
                                         k <= 9 ? 5 : 1, k <= 9 ? 1.0 : 0.0);
    const double difference = (results[0].probabilities - results[1].probabilities).cwiseAbs().maxCoeff();
    fmt::print("{:>3} {:>8} | {:>17.4f} {:>10.2e} | {:>17.4f} {:>10.2e} | {:>9.1e}\n", k, blocks.space().size(),
               timings[0].median, results[0].summary.residual, timings[1].median, results[1].summary.residual,
               difference);
    std::fflush(stdout);
  }
}
