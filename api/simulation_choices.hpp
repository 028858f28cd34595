#pragma once
// A simulation's settings as a user chooses them (the flags of simulate, validate and reproduce;
// the keywords of the Python package), turned into the run's settings by one rule: unless the user
// fixes the number of replications alone, the run goes on until the headline half-widths are within
// 1% of their estimates, since an interval too wide to decide anything is no default.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/caller_words.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"
#include "validation/engine_comparison.hpp"

namespace crawlq::api {

struct SimulationChoices {
  std::uint64_t seed = 1;
  // Given alone: exactly this many; else the sequential mode's first batch.
  std::optional<int> replications = std::nullopt;
  // Default: about a million offered pages at the pace the policy keeps (a pilot measures it).
  std::optional<double> horizon = std::nullopt;
  std::optional<double> warmup = std::nullopt;  // default: MSER-5 on a pilot run
  int threads = 0;                              // replications at once; 0: every core
  std::optional<double> precision =
      std::nullopt;        // default 0.01 unless replications are given alone; 0: off
  double time_limit = 50;  // seconds the run may take
  // A transient: the values at these times from `from` (empty, full, stationary, or a policy
  // file whose long run is the start), the indexer stopped during [0, outage).
  std::vector<double> times = {};
  std::string from = "empty";
  double outage = 0;
  std::string arrivals_log = {};  // a log the simulator replays (api/replayed_log.hpp); empty: none
  std::optional<double> batch_gap = std::nullopt, censor_gap = std::nullopt;  // its cuts
  bool full_chain = false;  // validate's exact side: every clock phase kept (SimulationSettings)
};

// The replications of a transient when none are given: each is short (it runs to the last time),
// and a curve's band should be narrow enough to see its shape.
inline constexpr int kTransientReplications = 1000;

// The checked settings; model::InputError naming the field (in `caller`'s words) and the value
// otherwise.
validation::SimulationSettings simulation_settings(const SimulationChoices& choices,
                                                   Caller caller = Caller::kCommandLine);

// The horizon a validation of `policy` on `simulated` runs: the settings', else the default at the
// pace a pilot run measures (of the log `settings.arrivals_log` replayed, when it names one);
// model::InputError naming `source` when the run could not finish in time, or the log (in
// `caller`'s words) when it cannot be read.
double validation_horizon(const model::Model& simulated, const model::ControlPolicy& policy,
                          const validation::SimulationSettings& settings, const std::string& source,
                          Caller caller = Caller::kCommandLine);

}  // namespace crawlq::api
