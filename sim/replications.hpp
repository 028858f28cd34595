#pragma once
// Independent replications after a warm-up, on threads (and processes: ReplicationSpread),
// summarised by Student-t 95% intervals. Each replication has its own random streams (seed,
// replication, source) and its result slot, so the numbers depend on neither count.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "model/model.hpp"
#include "sim/estimator.hpp"
#include "sim/policy.hpp"

namespace crawlq::sim {

class ReplicationSpread;

struct ReplicationPlan {
  std::uint64_t seed = 1;
  int replications = 10;
  double warmup = 0;   // simulated and discarded before each replication's observation
  double horizon = 0;  // observed time of each replication
  int threads = 0;     // 0: all cores
  // A replication still running then stops, and it and every later one are dropped (so the result
  // is that of the replications before it, whatever the thread count). With `spread`, each process
  // keeps the prefix of its own share.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  // Set from another thread to cancel: replications stop as at the deadline.
  const std::atomic<bool>* stop = nullptr;
  // Called after each replication with the number done (from any thread, one call at a time).
  std::function<void(int done)> progress = nullptr;
  // Where simulate, simulate_to_precision and compare_policies run the replications: nothing, all
  // on this process's threads; otherwise spread over processes (crawlq's MPI process group).
  const ReplicationSpread* spread = nullptr;
  // What each replication measures. Every process of a spread run makes the same set (the
  // estimates travel between processes as the measure list, model/measure_list.hpp).
  EstimatorFactory estimators = standard_estimators;
};

struct Interval {
  double mean = 0, half_width = 0;  // 95%, Student t with replications - 1 degrees of freedom
};

// Density of the served pages' sojourn on bins common to all replications, each bin an interval.
struct Histogram {
  std::vector<double> edges;      // bins [edges[i], edges[i+1])
  std::vector<Interval> density;  // per unit time; the mass beyond the last edge is left out
};

// Every measure of the list as an interval over the replications, and what the simulator adds.
struct SimulationSummary : model::MeasureSet<Interval> {
  Interval served_median, served_p90, served_p99;  // quantiles of the served pages' sojourn
  Histogram served_histogram;
  std::vector<PieceEstimate<Interval>> pieces;  // under a rhythm, one per piece; else empty
  std::vector<ReplicationEstimate> replications;
  std::uint64_t events = 0;
  double seconds = 0;
  double fewest_pages = 0;  // offered pages of the replication that saw the fewest
};

// Below this many offered pages in a replication, a measure that came out the same in every one
// (0 pages lost, say) may only mean the events were too few to happen: it is not taken as settled.
inline constexpr double kPagesToTrustNoSpread = 1000;

// About a million offered pages at the busiest mode: a horizon from the model alone, for runs whose
// policies use every mode (the paper's tables); simulate and validate measure the policy's own pace
// (horizon.hpp).
double busiest_mode_horizon(const model::Model& model);

// Mean and 95% half-width of independent values (half-width 0 for fewer than two).
Interval student_interval(const std::vector<double>& values);

// Replications first .. first+count-1 of `plan` (its `replications` is ignored), on plan.threads.
struct ReplicationBatch {
  std::vector<ReplicationEstimate> estimates;
  std::uint64_t events = 0;
  bool cut_short = false;  // the deadline stopped a replication: `estimates` holds those before it
};
ReplicationBatch run_replications(const model::Model& model, const Policy& policy,
                                  const ReplicationPlan& plan, int first, int count);

// Replications spread over several processes. Replication r draws from its streams (seed, r,
// source) wherever it runs, and the estimates come back in replication order, so the numbers are
// those of one process.
class ReplicationSpread {
 public:
  virtual ~ReplicationSpread() = default;
  // Replications first .. first+count-1, every estimate on every process, in replication order;
  // each process runs its share with run_replications on plan.threads.
  virtual ReplicationBatch run(const model::Model& model, const Policy& policy,
                               const ReplicationPlan& plan, int first, int count) const = 0;
  // A decision read from a clock (the next round of simulate_to_precision under its time limit):
  // every process takes process 0's `value`, so that all run the same rounds.
  virtual int agree(int value) const = 0;
};

// Intervals over the estimates (their order is the replication order).
SimulationSummary summarize(const model::Model& model, std::vector<ReplicationEstimate> estimates,
                            std::uint64_t events, double seconds);

SimulationSummary simulate(const model::Model& model, const Policy& policy,
                           const ReplicationPlan& plan);

// Two policies on the same random streams (common random numbers): each replication's estimate of
// B minus A, with paired Student intervals, beside the half-width independent runs would give.
struct PolicyComparison {
  SimulationSummary a, b;
  model::MeasureSet<Interval> difference;  // B - A, every scalar measure (the lists stay empty)
  double independent_cost_half_width = 0;  // sqrt(hw_A^2 + hw_B^2)
};
PolicyComparison compare_policies(const model::Model& model, const Policy& a, const Policy& b,
                                  const ReplicationPlan& plan);

// The sequential mode: adds replications until every target half-width (by default p_loss,
// p_served, cost, mean_sojourn_served) is within `relative_precision` of its estimate, or until
// `time_limit` seconds would be passed. Earlier replications are kept, so the result depends only
// on the seed and the number of replications it ends with.
struct SequentialResult {
  SimulationSummary summary;
  bool precise = false;  // false: stopped by the time limit
};
inline const std::vector<Interval SimulationSummary::*> kHeadlineMeasures{
    &SimulationSummary::p_loss, &SimulationSummary::p_served, &SimulationSummary::cost,
    &SimulationSummary::mean_sojourn_served};
// `targets`: the intervals that must reach the precision (by default the headline four).
SequentialResult simulate_to_precision(
    const model::Model& model, const Policy& policy, const ReplicationPlan& plan,
    double relative_precision, double time_limit,
    const std::vector<Interval SimulationSummary::*>& targets = kHeadlineMeasures);

}  // namespace crawlq::sim
