// The exact engine at scale: the paper's first example (W = M = R = 2) at capacity K under its
// optimal policy shape (3 robots up to 2 pages, then 1), solved by the iterative method: time to
// build the generator, time to solve, iterations, ||pQ||_1 and the peak memory of the process.
// Usage: solve_at_scale [--threads t] K [K ...]   (t defaults to $CRAWLQ_THREADS, else 2; run one K
// per process for an honest peak-memory figure)
#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>

#include "analytic/stationary/iterative_solver.hpp"
#include "analytic/stationary/measures.hpp"
#include "benchmark_support.hpp"
#include "scenarios/scenario_loader.hpp"

namespace {
constexpr const char* kSinglePhase = R"(
capacity: 5
arrivals:
  kind: poisson
  modes:
    - {rate: 3.0, batch: [0.4, 0.3, 0.2, 0.1]}
    - {rate: 2.0, batch: [0.4, 0.3, 0.2, 0.1]}
    - {rate: 1.2, batch: [0.4, 0.3, 0.2, 0.1]}
    - {rate: 0.6, batch: [0.4, 0.3, 0.2, 0.1]}
service: {exponential: {mean: 0.2}}
obsolescence: {gamma: [0.3, 0.7], Gamma: [[-0.6, 0.4], [0.1, -0.3]]}
costs: {loss: 5, obsolescence: 10, sojourn: 2, robot: 20, starvation: 300}
)";
}  // namespace

int main(int argc, char** argv) {
  using namespace crawlq;
  CLI::App app(
      "The paper's first example at capacity K under 3 robots up to 2 pages, then 1, solved by the\n"
      "iterative method: generator and solve times, iterations, ||pQ||_1, peak memory.\n"
      "Run one K per process for an honest peak-memory figure.",
      "solve_at_scale");
  std::vector<int> capacities;
  int threads = 2;
  app.add_option("K", capacities, "capacities to solve, e.g. 18 20")
      ->required()
      ->check(CLI::Range(2, 40));
  benchmarks::add_threads_option(app, threads, "threads inside the solve");
  bool jacobi = false;
  app.add_flag(
      "--jacobi", jacobi,
      "precondition with Q's diagonal alone (the solver before issue 16), to measure against");
  bool level_sweep = false;
  app.add_flag("--level-sweep", level_sweep,
               "precondition with the forward sweep by level (the default before the symmetric "
               "sweep), to measure against");
  bool single_phase = false;
  app.add_flag(
      "--single-phase", single_phase,
      "a model with one arrival phase and one service phase (W = M = 1; batches of 1-4 pages, the "
      "paper's two-phase clock), where no split by (arrival, service) phase is left to share");
  return benchmarks::run_benchmark(app, argc, argv, [&] {
    const auto scenario =
        single_phase
            ? scenarios::parse_scenario(kSinglePhase, "single-phase")
            : scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml");
    for (const int capacity : capacities) {
      model::Model m = scenario.model;
      m.capacity = capacity;
      const model::Policy policy = benchmarks::paper_optimum_shape(m.capacity);
      const auto start = std::chrono::steady_clock::now();
      const analytic::GeneratorBlocks blocks(m, policy);
      const double built =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const auto r = analytic::solve_stationary(
          blocks, analytic::Method::kIterative,
          {.threads = threads,
           .preconditioner = jacobi        ? analytic::Preconditioner::kJacobi
                             : level_sweep ? analytic::Preconditioner::kLevelSweep
                                           : analytic::Preconditioner::kSymmetricSweep});
      const auto measures =
          analytic::compute_measures(m, blocks.arrivals(), blocks.space(), r.probabilities);
      rusage usage{};
      getrusage(RUSAGE_SELF, &usage);
      fmt::print(
          "K = {:>2}: {:>9} states, generator {:.2f} s, solve {:.2f} s, {} iterations, ||pQ||_1 = {:.2e}, "
          "P_loss = {:.12f}, peak memory {:.2f} GiB\n",
          m.capacity, blocks.space().size(), built, r.summary.seconds, r.summary.iterations,
          r.summary.residual, measures.p_loss, usage.ru_maxrss / 1024.0 / 1024.0);
    }
  });
}
