#pragma once
// `simulate --compare` as a request: two policies simulated on common random numbers (the same
// arrivals, services and clocks in each replication), so that their difference is measured far more
// tightly than two independent runs would; with the JSON of `crawlq simulate --compare --json`.
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "api/caller_words.hpp"
#include "api/solve_request.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"
#include "sim/replications.hpp"
#include "sim/transient_replications.hpp"
#include "validation/engine_comparison.hpp"

namespace crawlq::api {

struct CompareRequest {
  std::string source;  // what messages call the model: its file's name
  model::Model model;
  model::ControlPolicy a, b;
  validation::SimulationSettings settings;  // precision is not used: exactly `replications` run
  const sim::ReplicationSpread* spread = nullptr;
  std::function<void(int done)> progress = nullptr;
  Caller caller = Caller::kCommandLine;  // whose words the messages use
};

struct CompareResult {
  sim::PolicyComparison comparison;  // the long runs', when no times were asked for
  // With times (the settings'): both transients and B - A at each time, on common random numbers.
  std::optional<sim::TransientComparison> transient = std::nullopt;
  sim::ReplicationPlan plan;  // the horizon and warm-up that ran (both chosen for policy A)
  double seconds_warmup = 0;  // wall time of the pace's pilot and MSER-5's, before the runs
};

// Throws model::InputError naming the source when the run could not fit (require_simulation_fits).
CompareResult compare(const CompareRequest& request, const Cancellation* cancel = nullptr);
// The keys of `simulate --compare --json` (interface.md).
nlohmann::json to_json(const CompareRequest& request, const CompareResult& result);

}  // namespace crawlq::api
