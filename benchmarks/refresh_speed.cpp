// Page refresh: the exact analysis (bound, randomized optimum, golden-ratio cycle and its rates)
// for growing N, and the refresh simulator's reads per second on one thread, randomized and cyclic.
#include <fmt/format.h>

#include <chrono>

#include "analytic/refresh/refresh_analysis.hpp"
#include "benchmark_support.hpp"
#include "model/elapsed.hpp"
#include "sim/refresh_simulator.hpp"

namespace {

crawlq::model::RefreshModel pages(int n, crawlq::model::RefreshPolicyKind kind) {
  std::vector<double> rates(n);
  double total = 0;
  for (int i = 0; i < n; ++i) total += rates[i] = 1.0 + (7 * i) % 10;
  for (double& r : rates) r /= total;
  crawlq::model::RefreshPolicySpec policy;
  policy.kind = kind;
  return crawlq::model::RefreshModel{
      .name = "bench",
      .change_rates = rates,
      .weights = rates,
      .access_time = crawlq::model::AccessTime(crawlq::model::PhaseType::exponential(1.0)),
      .policy = policy};
}

using crawlq::model::seconds_since;

}  // namespace

int main(int argc, char** argv) {
  using namespace crawlq;
  CLI::App app(
      "Page refresh scheduling: exact analysis of golden-ratio cycles for 500 to 50000 pages and\nthe simulator's reads per second.",
      "refresh_speed");
  return benchmarks::run_benchmark(app, argc, argv, [&] {
    for (int n : {500, 5000, 50000}) {
      const auto start = std::chrono::steady_clock::now();
      const auto a = analytic::analyze_refresh(pages(n, model::RefreshPolicyKind::kGoldenRatio));
      fmt::print(
          "exact analysis, N = {:>5}: golden-ratio cycle of {} reads, C/C* = {:.5f}, {:.3f} s\n", n,
          a.cycle.size(), a.cost / a.lower_bound.cost, seconds_since(start));
    }
    const auto m = pages(500, model::RefreshPolicyKind::kGoldenRatio);
    const auto a = analytic::analyze_refresh(m);
    sim::RefreshSimulationPlan plan;
    plan.replications = 4;
    plan.horizon = 5e6;
    plan.threads = 1;
    for (const auto& [name, order] :
         {std::pair<const char*, sim::AccessOrder>{"randomized",
                                                   sim::RandomizedOrder{a.randomized.frequencies}},
          std::pair<const char*, sim::AccessOrder>{"golden-ratio cycle",
                                                   sim::CyclicOrder{a.cycle}}}) {
      const auto r = sim::simulate_refresh(m, order, plan);
      fmt::print(
          "simulation, N = 500, {}: {} reads in {:.3f} s = {:.1f} million reads/s (1 thread)\n",
          name, r.accesses, r.seconds, r.accesses / r.seconds / 1e6);
    }
  });
}
