#pragma once
// A simulation watched as it runs, as the lab animates it: one sample path from an empty system,
// then estimates that narrow as independent replications add up, two a round. A request like the
// others: checked before any work (the horizons resolved at the pace a pilot run measures, the
// whole run bounded), cancellable, with its JSON sent as it is made.
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "api/caller_words.hpp"
#include "api/solve_request.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::api {

// The page's path: enough to watch for a minute, little enough to send at once.
inline constexpr std::size_t kMostLivePathEvents = 20000;
// The defaults, in events of the simulated system: a path to watch, a replication to count.
inline constexpr double kLivePathEvents = 2000, kLiveReplicationEvents = 2e5;
// Bounds on the run: replications, and events in all.
inline constexpr int kMostLiveReplications = 1000;
inline constexpr double kMostLiveEvents = 1e9;

struct LiveSimulationRequest {
  std::string source;  // what messages call the model
  model::Model model;
  model::ControlPolicy policy;
  std::uint64_t seed = 1;
  int replications = 20;
  std::optional<double> path_horizon;  // the path's time units; none: kLivePathEvents' worth
  std::optional<double> horizon;       // each replication's; none: kLiveReplicationEvents' worth
  Caller caller = Caller::kLab;
};

// The horizons a run takes, resolved.
struct LiveSimulationPlan {
  double path_horizon = 0, horizon = 0;
};

// Every check before the work: 2 to kMostLiveReplications replications, positive finite horizons,
// at most kMostLiveEvents events in all (model::InputError naming the field in the caller's words).
// Runs the pilot that measures the pace, so it takes a moment.
LiveSimulationPlan check(const LiveSimulationRequest& request);

// Sends ("path", {"events": [[t, "batch", pages, accepted], [t, "served", sojourn], [t,
// "expired", sojourn], [t, "state", level, robots], ...], "horizon"}) once, then ("estimates",
// {"replications", "events", every scalar measure as {"mean", "half_width"}}) each round. Stops
// when `emit` returns false or `cancel` is set (it returns then, without an exception: the one who
// stopped it is not listening).
using LiveEmit = std::function<bool(const std::string& kind, const nlohmann::json& data)>;
void live_simulation(const LiveSimulationRequest& request, const LiveSimulationPlan& plan,
                     const LiveEmit& emit, const Cancellation* cancel = nullptr);

}  // namespace crawlq::api
