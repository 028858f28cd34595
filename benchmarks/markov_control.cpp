// `optimize --class markov` on the paper's first example at capacity K (two-phase clocks: W (1 +
// M (2^K - 1)) states), with the sojourn weight 0 (the certified case) unless --sojourn keeps the
// paper's: wall time of assembling the chain and of policy iteration, the improvement steps, the
// gain and its lower bound. Usage: markov_control [--sojourn] [K ...] (default: 5 10 14 16).
#include "analytic/control/markov_control.hpp"

#include <fmt/format.h>

#include <chrono>
#include <string>
#include <vector>

#include "analytic/control/markov_search.hpp"
#include "analytic/control/policy_evaluation.hpp"
#include "benchmark_support.hpp"
#include "scenarios/scenario_loader.hpp"

int main(int argc, char** argv) {
  using namespace crawlq;
  CLI::App app(
      "Policy iteration over every full-state policy of the paper's first example at each capacity K\n"
      "(default 5 10 14 16): states, seconds to assemble, seconds to iterate, steps, gain, bound.\n"
      "With --sojourn, the whole `optimize --class markov` search under the paper's criterion.",
      "markov_control");
  std::vector<int> capacities{5, 10, 14, 16};
  bool sojourn = false;
  app.add_option("K", capacities, "capacities")->check(CLI::Range(1, 20));
  app.add_flag("--sojourn", sojourn,
               "keep the sojourn weight (a heuristic search, many iterations)");
  int threads = 2;
  benchmarks::add_threads_option(
      app, threads, "threads assembling the N constant generators and inside each policy's solve");
  return benchmarks::run_benchmark(app, argc, argv, [&] {
    model::Model base =
        scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
    base.policy.reset();
    if (!sojourn) base.costs.sojourn = 0;
    fmt::print("{:>3} {:>9} {:>10} {:>10} {:>6} {:>14} {:>14}\n", "K", "states", "assemble s",
               "iterate s", "steps", "cost", "lower bound");
    for (const int k : capacities) {
      model::Model m = base;
      m.capacity = k;
      using Clock = std::chrono::steady_clock;
      const auto start = Clock::now();
      const analytic::PolicyEvaluator evaluator(m, analytic::Method::kAuto, threads);
      const analytic::FullStateChain& chain = evaluator.full_state_chain(threads);
      const auto assembled = Clock::now();
      double cost = 0, bound = 0;
      int steps = 0;
      if (sojourn) {
        const analytic::MarkovSearch search = analytic::optimize_markov_policies(
            evaluator,
            analytic::MarkovSearchOptions{
                .threads = threads, .search = analytic::Search::kAuto, .progress = nullptr});
        cost = search.best->measures.cost, bound = search.lower_bound,
        steps = search.improvement_steps;
      } else {
        analytic::MarkovControlOptions options;
        options.threads = threads;
        const auto optimum = analytic::optimize_markov(
            chain, chain.robots_of(model::Policy::constant(1, m.modes(), m.capacity)), options);
        cost = optimum.gain, bound = optimum.lower_bound, steps = optimum.steps;
      }
      const auto done = Clock::now();
      fmt::print("{:>3} {:>9} {:>10.3f} {:>10.3f} {:>6} {:>14.10g} {:>14.10g}\n", k, chain.size(),
                 std::chrono::duration<double>(assembled - start).count(),
                 std::chrono::duration<double>(done - assembled).count(), steps, cost, bound);
      std::fflush(stdout);
    }
  });
}
