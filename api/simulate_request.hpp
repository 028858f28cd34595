#pragma once
// `simulate` as a request: a model, any form of policy and the run's settings in; every measure as
// a 95% interval out, with the JSON of `crawlq simulate --json`. How the replications are carried
// out (spread over processes, progress shown) is the caller's, and never changes the numbers.
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "api/solve_request.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"
#include "sim/horizon.hpp"
#include "sim/policy.hpp"
#include "sim/replications.hpp"
#include "sim/transient_replications.hpp"
#include "validation/engine_comparison.hpp"

namespace crawlq::api {

struct SimulateRequest {
  std::string source;  // what messages call the model: its file's name
  model::Model model;
  model::ControlPolicy policy;
  validation::SimulationSettings settings;
  // The run's carrying out: replications spread over processes (nothing: this one's threads), and a
  // call after each replication.
  const sim::ReplicationSpread* spread = nullptr;
  std::function<void(int done)> progress = nullptr;
  Caller caller = Caller::kCommandLine;  // whose words the messages use
};

struct SimulateResult {
  sim::SimulationSummary summary;  // the long run's, when no times were asked for
  std::optional<sim::TransientSimulation> transient = std::nullopt;  // when they were
  sim::ReplicationPlan plan;  // the horizon and warm-up that ran
  bool precise = true;        // the sequential mode reached its precision within the time limit
  nlohmann::json replayed_arrivals = nullptr;  // the log replayed (replayed_log_json); null: none
  // Wall time before the replications: the pace's pilot and MSER-5's (the summary's `seconds` is
  // the replications').
  double seconds_warmup = 0;
};

// Refuses (model::InputError naming the source, the flag, the value and the bound) a run that could
// not finish: more replications than memory holds, or more events at the pilot's measured `pace`
// than the time limit allows even at 10^8 events a second, before anything runs.
void require_simulation_fits(const model::Model& model, const sim::Pace& pace,
                             const validation::SimulationSettings& settings,
                             const std::string& source);

// Throws model::InputError naming the source when the run could not fit (require_simulation_fits),
// or when fewer than 2 replications finished within the time limit (or before `cancel` was set): an
// interval needs 2.
SimulateResult simulate(const SimulateRequest& request, const Cancellation* cancel = nullptr);
// The keys of `simulate --json` (interface.md).
nlohmann::json to_json(const SimulateRequest& request, const SimulateResult& result);

// A transient's run made ready (simulate --times, and its comparison of two policies): the
// policies, the plan with its start (a warm-up or the exact engine's fresh start), and the events
// it will take at the pace a pilot measured. Throws model::InputError naming the start when the
// simulator cannot take it.
struct PreparedTransient {
  std::unique_ptr<sim::Policy> policy, warmup_policy;  // the plan points to warmup_policy
  sim::TransientPlan plan;
  double events = 0;
};
PreparedTransient prepare_transient(const SimulateRequest& request, const Cancellation* cancel);
// model::InputError naming the time limit when `events` could not run within it.
void require_transient_fits(const SimulateRequest& request, double events);
// The plan's deadline: `time_limit` seconds from now.
void start_clock(sim::TransientPlan& plan, double time_limit);
// model::InputError when fewer than 2 replications finished (an interval needs 2).
void require_two_replications(const SimulateRequest& request, int replications);
// Each time's keys as {"mean", "half_width"} (a rate with no estimate: nulls).
nlohmann::json transient_points_json(const sim::TransientSimulation& transient);

}  // namespace crawlq::api
