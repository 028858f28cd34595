// The tagged page's chain at scale: the paper's first example at capacity K under 3 robots up to 2
// pages, then 1, its stationary solve, then the parts of `crawlq solve --sojourn` one by one: the
// chain with its moment vectors (block solves), the arriving page's start, and the nine quantiles
// (uniformisation or Krylov steps, as `--law-method` says; `--fast F` makes the first service phase
// F times as fast, a stiff chain for F in the thousands).
// Usage: sojourn_at_scale [--threads t] [--law-method m] [--fast F] K [K ...]
#include <fmt/format.h>

#include <chrono>

#include "analytic/sojourn/sojourn_times.hpp"
#include "analytic/stationary/iterative_solver.hpp"
#include "benchmark_support.hpp"
#include "model/elapsed.hpp"
#include "scenarios/scenario_loader.hpp"

using crawlq::model::seconds_since;

namespace {
// The fastest rate times the slowest fate's mean plus ten standard deviations: what the automatic
// choice of method weighs against analytic::kKrylovReach.
double jumps_in_reach(const crawlq::analytic::TaggedPageChain& chain,
                      const crawlq::analytic::SojournTimes& laws) {
  double reach = 0;
  for (const auto fate :
       {crawlq::analytic::PageFate::kServed, crawlq::analytic::PageFate::kObsolete})
    if (laws.probability(fate) > 0)
      reach = std::max(reach, laws.mean(fate) + 10 * laws.standard_deviation(fate));
  return chain.max_exit_rate() * reach;
}
}  // namespace

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
  std::string method_name = "automatic";
  app.add_option("--law-method", method_name,
                 "how the quantiles' distribution functions are computed")
      ->check(CLI::IsMember(analytic::kLawMethodNames.names()));
  double fast = 1;
  app.add_option("--fast", fast, "the first service phase's rates multiplied by this")
      ->check(CLI::Range(1e-3, 1e9));
  return benchmarks::run_benchmark(app, argc, argv, [&] {
    const auto scenario =
        scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml");
    for (const int capacity : capacities) {
      model::Model m = scenario.model;
      m.capacity = capacity;
      if (fast != 1) {
        model::Matrix service = m.service.subgenerator();
        service.row(0) *= fast;
        m.service = model::PhaseType(m.service.initial(), service);
      }
      const model::Policy policy = benchmarks::paper_optimum_shape(m.capacity);
      const analytic::GeneratorBlocks blocks(m, policy);
      const auto r =
          analytic::solve_stationary(blocks, analytic::Method::kIterative, {.threads = threads});
      auto start = std::chrono::steady_clock::now();
      const analytic::TaggedPageChain chain(m, threads);
      const double moments = seconds_since(start);
      start = std::chrono::steady_clock::now();
      analytic::SojournTimes laws(
          chain, chain.arrival_distribution(m, blocks.arrivals(), blocks.space(), r.probabilities));
      laws.set_law_method(analytic::kLawMethodNames.parse(method_name));
      const double arrival = seconds_since(start);
      start = std::chrono::steady_clock::now();
      double checksum = 0;
      for (const auto fate : {analytic::PageFate::kAccepted, analytic::PageFate::kServed,
                              analytic::PageFate::kObsolete})
        for (const double level : {0.5, 0.9, 0.99}) checksum += laws.quantile(fate, level);
      const double quantiles = seconds_since(start);
      fmt::print(
          "K = {:>2}: {:>9} tagged states, stationary {:.2f} s, moments {:.2f} s, start {:.2f} s, "
          "quantiles {:.2f} s by {} (q x reach {:.3g}; sum {:.12f}, mean sojourn {:.12f})\n",
          capacity, chain.size(), r.summary.seconds, moments, arrival, quantiles,
          analytic::law_method_name(laws.law_method()), jumps_in_reach(chain, laws), checksum,
          laws.mean(analytic::PageFate::kAccepted));
    }
  });
}
