// One stationary solve of the paper's example per capacity K (R = 2, W = M = 2: 2(1 + 2(2^K - 1))
// states), policy 3 robots up to level 2 then 1, by the block recursion, SparseLU on the pinned
// generator and the iterative solver, side by side; the largest difference from the iterative
// solution. A method is skipped beyond the K where it takes too long (block recursion past 11,
// sparse-lu past 12: 2 minutes and 9.5 GB at 13, K = 14 does not fit in 24 GB).
// Usage: solve_by_capacity [K_min] [K_max]
#include <fmt/format.h>

#include "analytic/stationary/generator_blocks.hpp"
#include "analytic/stationary/stationary_solver.hpp"
#include "benchmark_support.hpp"
#include "scenarios/scenario_loader.hpp"

int main(int argc, char** argv) {
  using namespace crawlq;
  CLI::App app(
      "One stationary solve of the paper's example per capacity K by block recursion, sparse LU and\n"
      "the iterative solver, side by side, with the largest difference from the iterative solution.",
      "solve_by_capacity");
  int k_min = 5, k_max = 16;
  app.add_option("K_min", k_min, "smallest capacity")
      ->capture_default_str()
      ->check(CLI::Range(2, 40));
  app.add_option("K_max", k_max, "largest capacity")
      ->capture_default_str()
      ->check(CLI::Range(2, 40));
  return benchmarks::run_benchmark(app, argc, argv, [&] {
    const auto scenario =
        scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml");
    const analytic::Method methods[] = {analytic::Method::kBlockRecursion,
                                        analytic::Method::kSparseLu, analytic::Method::kIterative};
    const int largest[] = {11, 12, 99};
    fmt::print("{:>3} {:>9} | {:>16} {:>16} {:>16} | {:>9}\n", "K", "states", "block-recursion s",
               "sparse-lu s", "iterative s", "max |dp|");
    for (int k = k_min; k <= k_max; ++k) {
      model::Model m = scenario.model;
      m.capacity = k;
      const auto policy = benchmarks::paper_optimum_shape(k);
      const analytic::GeneratorBlocks blocks(m, policy);
      analytic::StationaryResult results[3];
      std::string cells[3];
      for (int i = 0; i < 3; ++i) {
        if (k > largest[i]) {
          cells[i] = std::string("-");  // not `= "-"`: GCC 12 -O3 warns falsely (-Wrestrict)
          continue;
        }
        const auto t = benchmarks::time_runs(
            [&] { results[i] = analytic::solve_stationary(blocks, methods[i]); }, k <= 9 ? 5 : 1,
            k <= 9 ? 1.0 : 0.0);
        cells[i] = fmt::format("{:.4f}", t.median);
      }
      double difference = 0;
      for (int i = 0; i < 2; ++i)
        if (k <= largest[i])
          difference =
              std::max(difference,
                       (results[i].probabilities - results[2].probabilities).cwiseAbs().maxCoeff());
      fmt::print("{:>3} {:>9} | {:>16} {:>16} {:>16} | {:>9.1e}\n", k, blocks.space().size(),
                 cells[0], cells[1], cells[2], difference);
      std::fflush(stdout);
    }
  });
}
