// The simulator's speed: events per second on one thread (paper example at K = 5 and K = 30), the
// speed-up with two threads, and the wall time until P_loss of the paper's optimum (3,3,3,1,1,1) is
// known to +-1% (replications doubled until the half-width is within 1% of the mean).
// Targets (issue 3): 20 million events/s, 1.9x, 2 s; (issue 16) 25 million events/s, and no less
// than 10 million on the phase-tracking path that policies reading the arrival phase need. Each
// timing is the fastest of --repeats runs: on a shared or virtual machine a run is slowed by
// whatever else runs, by up to a third from one minute to the next, and a speed-up taken from two
// single runs swung from 1.5x to 2.1x.
#include <fmt/format.h>

#include <chrono>
#include <vector>

#include "analytic/core_figures.hpp"
#include "benchmark_support.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/policy.hpp"
#include "sim/replications.hpp"

int main(int argc, char** argv) {
  using namespace crawlq;
  CLI::App app(
      "The simulator's speed: events per second on one and two threads, and the wall time until\nP_loss of the paper's optimum is known to +-1%.",
      "simulation_speed");
  // Enough work that the two-thread figure measures the replications, not the threads' start: 16
  // replications of 10^6 time units, about 2.5 s on one thread of a 2020s core.
  int replications = 16;
  double horizon = 1e6;
  int repeats = 3;
  bool quick = false;
  app.add_option("--replications", replications, "replications per timing (default 16)")
      ->check(CLI::Range(2, 1'000'000));
  app.add_option("--horizon", horizon, "time units per replication (default 1e6)")
      ->check(CLI::PositiveNumber);
  app.add_option("--repeats", repeats,
                 "runs of each timing, the fastest kept: a run that another program or the host "
                 "slowed says nothing of the simulator (default 3)")
      ->check(CLI::Range(1, 100));
  app.add_flag("--quick", quick,
               "a few seconds in all: 4 replications of 25,000 time units, K = 5 only, no +-1% run "
               "(what CI runs; too little work for an honest two-thread figure)");
  return benchmarks::run_benchmark(app, argc, argv, [&] {
    if (quick) replications = 4, horizon = 25000, repeats = 1;
    const auto scenario =
        scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml");
    for (int k : quick ? std::vector<int>{5} : std::vector<int>{5, 30}) {
      model::Model m = scenario.model;
      m.capacity = k;
      const sim::LevelMapPolicy policy(benchmarks::paper_optimum_shape(k));
      // The one- and two-thread runs take turns, so that a slow spell of the host (a few seconds
      // on a VM) falls on both counts, not on all the repeats of one: in one such spell the three
      // two-thread runs of a row took 0.84 s where they take 0.74, and the speed-up read 1.77x.
      sim::SimulationSummary fastest[2];
      double stolen[2] = {0, 0};
      for (int run = 0; run < repeats; ++run)
        for (int threads : {1, 2}) {
          const sim::ReplicationPlan plan{.seed = 1,
                                          .replications = replications,
                                          .warmup = 0,
                                          .horizon = horizon,
                                          .threads = threads};
          const double steal_before = analytic::allowed_cores_steal_seconds().value_or(0);
          const auto s = sim::simulate(m, policy, plan);
          auto& best = fastest[threads - 1];
          if (run == 0 || s.seconds < best.seconds)
            best = s, stolen[threads - 1] =
                          analytic::allowed_cores_steal_seconds().value_or(0) - steal_before;
        }
      double rate[2] = {0, 0};
      for (int threads : {1, 2}) {
        const auto& best = fastest[threads - 1];
        rate[threads - 1] = best.events / best.seconds;
        fmt::print(
            "K = {:>2}, {} thread(s): {} events in {:.3f} s = {:.2f} million events/s (fastest of "
            "{}; the host took {:.2f} cores meanwhile)\n",
            k, threads, best.events, best.seconds, rate[threads - 1] / 1e6, repeats,
            stolen[threads - 1] / best.seconds);
      }
      fmt::print("K = {:>2}: speed-up with 2 threads {:.2f}x\n", k, rate[1] / rate[0]);
    }
    {
      // A full-state table (here the optimum's levels, state by state): the controller may read
      // every phase, so the run tracks the server's and each clock's (sim/phase_level_run.hpp).
      const model::Model& m = scenario.model;
      std::vector<int> robots;
      for (int level = 0; level <= m.capacity; ++level) {
        int states = 2;  // W
        for (int waiting = 0; level > 0 && waiting < level; ++waiting)
          states *= 2;  // M, then R per waiting page
        robots.insert(robots.end(), static_cast<std::size_t>(states), level <= 2 ? 3 : 1);
      }
      const auto table = sim::make_policy(
          model::make_table(robots, m.capacity, 2, 2, 2, 4, "benchmark", "benchmark"));
      const sim::ReplicationPlan plan{.seed = 1,
                                      .replications = quick ? 2 : 8,
                                      .warmup = 0,
                                      .horizon = quick ? horizon : 250000,
                                      .threads = 1};
      const auto s = sim::simulate(m, *table, plan);
      fmt::print(
          "K =  5, full-state table, 1 thread: {} events in {:.3f} s = {:.2f} million events/s\n",
          s.events, s.seconds, s.events / s.seconds / 1e6);
    }
    if (quick) return;
    const sim::LevelMapPolicy optimum(model::Policy::from_levels({3, 3, 3, 1, 1, 1}, 4, 5));
    const auto start = std::chrono::steady_clock::now();
    double horizon = 20000;
    while (true) {
      const sim::ReplicationPlan plan{
          .seed = 7, .replications = 10, .warmup = horizon / 10, .horizon = horizon, .threads = 0};
      const auto s = sim::simulate(scenario.model, optimum, plan);
      if (s.p_loss.half_width <= 0.01 * s.p_loss.mean) {
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        fmt::print(
            "P_loss to +-1%: {:.5f} +- {:.5f} with 10 replications of {:.0f} time units; wall time {:.2f} s "
            "(all attempts)\n",
            s.p_loss.mean, s.p_loss.half_width, horizon, wall);
        break;
      }
      horizon *= 2;
    }
  });
}
