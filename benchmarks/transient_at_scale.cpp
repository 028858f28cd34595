// Transient analysis at scale: the paper's first example at capacity K under 3 robots up to 2
// pages, then 1, from the empty system, at n times evenly up to T (issue 30's targets: K = 16,
// 50 times up to t = 50, under 10 s on 2 cores; K = 20 under 60 s): wall time, generator products,
// the truncation error's bound and the peak memory of the process.
// Usage: transient_at_scale [--threads t] [--until T] [--points n] [--outage D]
//                           [--method auto|uniformisation|krylov] K [K ...]
#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <map>
#include <string>

#include "analytic/transient/transient_analysis.hpp"
#include "analytic/transient/transient_chain.hpp"
#include "benchmark_support.hpp"
#include "scenarios/scenario_loader.hpp"

int main(int argc, char** argv) {
  using namespace crawlq;
  CLI::App app(
      "The paper's first example at capacity K under 3 robots up to 2 pages, then 1: its transient\n"
      "from the empty system at n times evenly up to T. Wall time, products x Q, the truncation\n"
      "error's bound, peak memory. Run one K per process for an honest peak-memory figure.",
      "transient_at_scale");
  std::vector<int> capacities;
  int threads = 2;
  double until = 50, outage = 0;
  int points = 50;
  app.add_option("K", capacities, "capacities, e.g. 16 20")->required()->check(CLI::Range(2, 40));
  benchmarks::add_threads_option(app, threads, "threads of each product");
  app.add_option("--until", until, "T, the last time (default 50)")->check(CLI::PositiveNumber);
  app.add_option("--points", points, "n, the number of times (default 50)")
      ->check(CLI::Range(1, 100000));
  analytic::TransientMethod method = analytic::TransientMethod::kAuto;
  app.add_option("--method", method, "auto (default), uniformisation or krylov")
      ->transform(CLI::CheckedTransformer(std::map<std::string, analytic::TransientMethod>{
          {"auto", analytic::TransientMethod::kAuto},
          {"uniformisation", analytic::TransientMethod::kUniformisation},
          {"krylov", analytic::TransientMethod::kKrylov}}));
  app.add_option("--outage", outage, "D: the indexer stopped during [0, D) (default 0)")
      ->check(CLI::NonNegativeNumber);
  return benchmarks::run_benchmark(app, argc, argv, [&] {
    const auto scenario =
        scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml");
    std::vector<double> times;
    for (int i = 1; i <= points; ++i) times.push_back(until * i / points);
    for (const int capacity : capacities) {
      model::Model m = scenario.model;
      m.capacity = capacity;
      const model::ControlPolicy policy = benchmarks::paper_optimum_shape(capacity);
      const auto start = std::chrono::steady_clock::now();
      const Eigen::VectorXd empty = analytic::TransientChain(m, policy).empty_start();
      const analytic::TransientResult r = analytic::transient_analysis(
          m, policy, empty,
          {.times = times, .outage = outage, .threads = threads, .method = method});
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      rusage usage{};
      getrusage(RUSAGE_SELF, &usage);
      fmt::print(
          "K = {:>2}: {:>9} states, {} times up to {:g}: {:.2f} s by {}, {} products, error {:.1e}, "
          "mean in system at T {:.10f}, peak memory {:.2f} GiB\n",
          capacity, r.states, points, until, seconds,
          analytic::kTransientMethodNames.name(r.method), r.products, r.truncation_error,
          r.points.back().mean_in_system, usage.ru_maxrss / 1024.0 / 1024.0);
    }
  });
}
