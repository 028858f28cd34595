// The tagged page's chain at scale: the paper's first example at capacity K under 3 robots up to 2
// pages, then 1, its stationary solve, then the parts of `crawlq solve --sojourn` one by one: the
// chain with its moment vectors (block solves), the arriving page's start, and the nine quantiles
// (uniformisation).
// Usage: sojourn_at_scale [--threads t] K [K ...]
#include <fmt/format.h>

#include <chrono>

#include "analytic/sojourn/sojourn_times.hpp"
#include "analytic/stationary/iterative_solver.hpp"
#include "benchmark_support.hpp"
#include "model/elapsed.hpp"
#include "scenarios/scenario_loader.hpp"

using crawlq::model::seconds_since;

int main(int argc, char** argv) {
  using namespace crawlq;
  CLI::App app(
      "The paper's first example at capacity K: the parts of the sojourn times' computation timed\n"
      "one by one (the moment vectors, the arriving page's start, the nine quantiles).",
      "sojourn_at_scale");
  std::vector<int> capacities;
  int threads = 2;
  app.add_option("K", capacities, "capacities, e.g. 16 20")->required()->check(CLI::Range(2, 40));
  benchmarks::add_threads_option(app, threads, "threads of each solve and product");
  return benchmarks::run_benchmark(app, argc, argv, [&] {
    const auto scenario =
        scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml");
    for (const int capacity : capacities) {
      model::Model m = scenario.model;
      m.capacity = capacity;
      const model::Policy policy = benchmarks::paper_optimum_shape(m.capacity);
      const analytic::GeneratorBlocks blocks(m, policy);
      const auto r =
          analytic::solve_stationary(blocks, analytic::Method::kIterative, {.threads = threads});
      auto start = std::chrono::steady_clock::now();
      const analytic::TaggedPageChain chain(m, threads);
      const double moments = seconds_since(start);
      start = std::chrono::steady_clock::now();
      const analytic::SojournTimes laws(
          chain, chain.arrival_distribution(m, blocks.arrivals(), blocks.space(), r.probabilities));
      const double arrival = seconds_since(start);
      start = std::chrono::steady_clock::now();
      double checksum = 0;
      for (const auto fate : {analytic::PageFate::kAccepted, analytic::PageFate::kServed,
                              analytic::PageFate::kObsolete})
        for (const double level : {0.5, 0.9, 0.99}) checksum += laws.quantile(fate, level);
      const double quantiles = seconds_since(start);
      fmt::print(
          "K = {:>2}: {:>9} tagged states, stationary {:.2f} s, moments {:.2f} s, start {:.2f} s, "
          "quantiles {:.2f} s (sum {:.12f}, mean sojourn {:.12f})\n",
          capacity, chain.size(), r.summary.seconds, moments, arrival, quantiles, checksum,
          laws.mean(analytic::PageFate::kAccepted));
    }
  });
}
