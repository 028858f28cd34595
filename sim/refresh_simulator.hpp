#pragma once
// An event-driven simulation of page refresh (Coffman, Liu, Weber 1998), independent of the exact
// formulas: the robot reads pages one after another (each read takes an X drawn from the
// access-time law), each page changes as a Poisson process, and a page is out of date from its
// first change after a read until its next read. Replications give each page's obsolescence rate
// r_i and the cost sum c_i r_i with 95% Student-t intervals.
#include <cstdint>
#include <variant>
#include <vector>

#include "model/refresh_model.hpp"
#include "sim/replications.hpp"

namespace crawlq::sim {

// How the robot picks the next page: independently at random with these probabilities, or by
// repeating one cycle of page indices.
struct RandomizedOrder {
  std::vector<double> frequencies;  // sum 1
};
struct CyclicOrder {
  std::vector<int> cycle;
};
using AccessOrder = std::variant<RandomizedOrder, CyclicOrder>;

struct RefreshSimulationPlan {
  std::uint64_t seed = 1;
  int replications = 10;
  double horizon = 0;  // observed time per replication (> 0)
  double warmup = 0;   // simulated and discarded first
  int threads = 0;     // 0: all cores; the numbers do not depend on it
};

struct RefreshSimulationResult {
  std::vector<Interval> obsolescence_rates;  // r_i
  Interval cost;                             // sum c_i r_i, from per-replication costs
  std::uint64_t accesses = 0;
  double seconds = 0;
};

// What a simulation will take, known before it starts, so that one too large for the machine is
// refused rather than begun: each replication reads about (warm-up + horizon) / E[X] pages and
// keeps a stale time per page; the order is held once.
struct RefreshSimulationNeed {
  double reads_per_replication = 0;
  double bytes_per_replication = 0;
  double fixed_bytes = 0;

  double reads(double replications) const { return replications * reads_per_replication; }
  double bytes(double replications) const {
    return fixed_bytes + replications * bytes_per_replication;
  }
};
RefreshSimulationNeed estimate_refresh_simulation(const model::RefreshModel& model,
                                                  const AccessOrder& order, double horizon,
                                                  double warmup);

RefreshSimulationResult simulate_refresh(const model::RefreshModel& model, const AccessOrder& order,
                                         const RefreshSimulationPlan& plan);

}  // namespace crawlq::sim
