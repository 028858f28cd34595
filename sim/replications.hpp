#pragma once
// Independent replications after a warm-up, on threads, summarised by Student-t 95% intervals. Each
// replication has its own random streams (seed, replication, source) and its result slot, so the
// numbers do not depend on the thread count.
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "sim/policy.hpp"
#include "sim/statistics_observer.hpp"

namespace crawlq::sim {

struct ReplicationPlan {
  std::uint64_t seed = 1;
  int replications = 10;
  double warmup = 0;   // simulated and discarded before each replication's observation
  double horizon = 0;  // observed time of each replication
  int threads = 0;     // 0: all cores
};

struct Interval {
  double mean = 0, half_width = 0;  // 95%, Student t with replications - 1 degrees of freedom
};

struct SimulationSummary {
  Interval lambda, p_loss, p_obsolete, p_served, p_starvation, mean_active_robots, mean_sojourn,
      mean_sojourn_served, mean_sojourn_obsolete, cost;
  Interval served_median, served_p90, served_p99;  // quantiles of the served pages' sojourn
  std::vector<Interval> level_probabilities, mode_probabilities;
  std::vector<ReplicationEstimate> replications;
  std::uint64_t events = 0;
  double seconds = 0;
};

// Mean and 95% half-width of independent values (half-width 0 for fewer than two).
Interval student_interval(const std::vector<double>& values);

SimulationSummary simulate(const model::Model& model, const Policy& policy, const ReplicationPlan& plan);

}  // namespace crawlq::sim
