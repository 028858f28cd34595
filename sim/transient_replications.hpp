#pragma once
// A transient by simulation: independent replications from the same start (an empty or full system
// as the exact engine starts it, or the long run reached by a warm-up, under this policy or another
// one switched at the end of the warm-up), with the indexer stopped for a stretch, each key of
// model/transient_keys.hpp estimated at each time as a 95% interval. Replication r draws from its
// own streams and fills its own slot, so the numbers depend on no thread count.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "model/control_policy.hpp"
#include "model/model.hpp"
#include "model/transient_keys.hpp"
#include "sim/policy.hpp"
#include "sim/replications.hpp"
#include "sim/run_setup.hpp"

namespace crawlq::sim {

struct TransientPlan {
  std::uint64_t seed = 1;
  int replications = 100;
  int threads = 0;                 // 0: all cores
  std::vector<double> times = {};  // nondecreasing, >= 0, counted from the start (of the outage)
  double outage = 0;               // the indexer serves nothing during [0, outage)
  RunSetup start = {};             // the state at the start when there is no warm-up (fresh_start)
  // > 0: each replication first runs this long from an empty system (the start is then the long
  // run), under `warmup_policy` when it is given (a policy switched at the start).
  double warmup = 0;
  const Policy* warmup_policy = nullptr;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  const std::atomic<bool>* stop = nullptr;
  std::function<void(int done)> progress = nullptr;
};

struct TransientPointEstimate {
  double t = 0;
  std::vector<Interval> level_probabilities;
  // Indexed by model::TransientKey. A rate over a stretch of no length has no estimate: NaN.
  std::array<Interval, model::kTransientKeyCount> values{};
  const Interval& operator[](model::TransientKey key) const {
    return values[static_cast<std::size_t>(key)];
  }
};

struct TransientSimulation {
  std::vector<TransientPointEstimate> points;  // one per time
  int replications = 0;  // those that finished (the deadline may stop the later ones)
  std::uint64_t events = 0;
  double seconds = 0;
};

TransientSimulation simulate_transient(const model::Model& model, const Policy& policy,
                                       const TransientPlan& plan);

// Two policies from their starts on the same random streams (common random numbers): each, and
// replication by replication B minus A, with paired intervals. The plans differ only in their
// starts (each policy's own); replications past either's deadline are dropped from the difference.
struct TransientComparison {
  TransientSimulation a, b, difference;
};
TransientComparison compare_transient(const model::Model& model, const Policy& a,
                                      const TransientPlan& plan_a, const Policy& b,
                                      const TransientPlan& plan_b);

}  // namespace crawlq::sim
