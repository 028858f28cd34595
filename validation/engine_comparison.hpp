#pragma once
// The verdict of `crawlq validate`: for one scenario and policy, each measure's exact value beside
// the simulator's estimate, the z-score of their difference and whether it is within the bound.
//
// The bound: a scenario is judged on m measures at once, so each is tested at level 0.01 / m
// (Bonferroni), with the Student t of the replications: a correct model is flagged in at most 1% of
// scenarios, and a difference of a few standard errors in any measure is caught.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analytic/transient/transient_analysis.hpp"
#include "model/model.hpp"
#include "model/name_table.hpp"
#include "sim/policy.hpp"
#include "sim/replications.hpp"

namespace crawlq::validation {

// Checked where a caller's choices become settings (api/simulation_choices.hpp), in its words.
struct SimulationSettings {
  std::uint64_t seed = 1;
  int replications = 10;                         // the first batch when precision > 0
  std::optional<double> horizon = std::nullopt;  // default: sim::default_horizon
  std::optional<double> warmup = std::nullopt;   // default: MSER-5 on a pilot run
  int threads = 0;
  double precision = 0.01;  // 0: exactly `replications`
  double time_limit = 20;   // seconds per scenario, for the sequential mode
  // A transient instead of the long run: each value at these times from `from`, or from the long
  // run of the policy file `from_file` (a policy switched at the start), with the indexer stopped
  // during [0, outage); exactly `replications` run.
  std::vector<double> times = {};
  analytic::TransientStart from = analytic::TransientStart::kEmpty;
  std::string from_file = {};
  double outage = 0;
  // A crawler's log replayed in place of the simulated model's arrival law (api/replayed_log.hpp):
  // its path, or a shipped log's name; empty: none.
  std::string arrivals_log = {};
  // How the replay cuts the log (fit/batched_log.hpp); none: fit arrivals' defaults.
  std::optional<double> batch_gap = std::nullopt, censor_gap = std::nullopt;
  // validate's exact side keeps every phase of the obsolescence clock, where one exit rate would
  // lump them (analytic/stationary/clock_lumping.hpp) into a chain with the same measures.
  bool full_chain = false;
};

enum class Verdict { kAgrees, kDiffers, kSimulatedOnly };
inline constexpr model::NameTable<Verdict, 3> kVerdictNames{
    "verdict",
    {{{Verdict::kAgrees, "agrees"},
      {Verdict::kDiffers, "differs"},
      {Verdict::kSimulatedOnly, "simulated only"}}}};

struct MeasureVerdict {
  std::string name;  // a key of `solve --json`; "level_probabilities[2]" for entries
  std::optional<double> t = std::nullopt;  // of a transient: the time the value is at
  // Under a rhythm: the piece the value is of (nothing: the period's average).
  std::optional<std::size_t> piece = std::nullopt;
  std::optional<double> exact;  // nothing when the exact engine could not run
  sim::Interval simulated;
  double z = 0;  // (simulated - exact) / standard error
  // Every replication gave the same value, apart from the exact one: the run saw none of what the
  // difference measures (no page lost at a loss probability of 1e-8, say), and the exact value
  // makes seeing none likely (unseen_is_likely), so the measure agrees whatever its infinite z.
  bool unseen = false;
  Verdict verdict = Verdict::kSimulatedOnly;
};

struct EngineComparison {
  std::vector<MeasureVerdict> measures;
  double z_bound = 0;               // |z| above it: the measure disagrees
  std::string exact_engine_absent;  // why there is no exact value, empty when there is
  int replications = 0;
  bool precise = true;  // the sequential mode reached its precision
  std::uint64_t events = 0;
  // Wall times: the whole comparison, and its parts, the exact engine's evaluation, the pilot runs
  // before the replications (the pace's, MSER-5's) and the replications, whose events `events`
  // counts.
  double seconds = 0, seconds_exact = 0, seconds_warmup = 0, seconds_replications = 0;
  bool agrees() const;
};

// `exact_policy` is the policy the exact engine solves (nothing: it cannot, say why in
// `absent_reason`); `simulated_model` and `simulated_policy` are what the simulator runs, normally
// the same model and policy. The two models must have the same capacity and number of modes.
EngineComparison compare_engines(const model::Model& exact_model,
                                 const std::optional<model::ControlPolicy>& exact_policy,
                                 const std::string& absent_reason,
                                 const model::Model& simulated_model,
                                 const sim::Policy& simulated_policy,
                                 const SimulationSettings& settings);

const char* verdict_name(Verdict verdict);

// The family's level: a correct model is flagged in at most this share of the scenarios judged.
inline constexpr double kFamilyLevel = 0.01;
// The verdict on a measure with an exact value: it agrees while |z| is within the family's bound
// (z = +-inf, a difference with no spread to excuse it, never does).
Verdict verdict_of(double z, double z_bound);

// Whether a run of `pages` offered pages seeing none of what `difference` measures is likely
// enough to pass at `level`: what befalls a page with chance d befalls none of n pages with chance
// (1 - d)^n. Counted in pages, since the per-page chances (loss, obsolescence) are what a short run
// misses.
bool unseen_is_likely(double difference, double pages, double level);

// (simulated - exact) / standard_error. With no spread beyond round-off (a measure that is 0, or
// 1, in every replication) only round-off may separate the two: 0 within it, else +-inf.
double z_score(double simulated, double exact, double standard_error);

}  // namespace crawlq::validation
