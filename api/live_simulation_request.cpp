#include "api/live_simulation_request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <vector>

#include "api/json_output.hpp"
#include "api/request_checks.hpp"
#include "api/sample_path_request.hpp"
#include "model/input_error.hpp"
#include "sim/horizon.hpp"
#include "sim/observer.hpp"
#include "sim/policy.hpp"
#include "sim/replications.hpp"

namespace crawlq::api {

namespace {

// One sample path as the page draws it: every batch, service, expiry and decision, up to a cap.
class PathRecorder final : public sim::Observer {
 public:
  explicit PathRecorder(std::size_t most) : most_(most) {}
  void on_interval(double, double, int, int) override {}
  void on_batch(double time, int batch, int accepted) override {
    add({time, "batch", batch, accepted});
  }
  void on_served(double time, double sojourn) override { add({time, "served", sojourn}); }
  void on_expired(double time, double sojourn) override { add({time, "expired", sojourn}); }
  void on_state(double time, int level, int robots) override {
    add({time, "state", level, robots});
  }
  bool wants_state() const override { return true; }
  nlohmann::json take() { return std::move(events_); }
  const std::atomic<bool>& full() const { return full_; }

 private:
  void add(nlohmann::json event) {
    if (events_.size() >= most_) {
      full_ = true;
      return;
    }
    events_.push_back(std::move(event));
  }
  std::size_t most_;
  nlohmann::json events_ = nlohmann::json::array();
  std::atomic<bool> full_{false};
};

}  // namespace

LiveSimulationPlan check(const LiveSimulationRequest& request) {
  require_no_rhythm(request.model, request.source, "simulate");
  const auto name = [&](Field field) { return std::string(field_name(request.caller, field)); };
  if (request.replications < 2 || request.replications > kMostLiveReplications)
    throw model::InputError(
        name(Field::kReplications),
        fmt::format("{}: give 2 to {}", request.replications, kMostLiveReplications));
  const std::unique_ptr<sim::Policy> simulated = sim::make_policy(request.policy);
  const sim::Pace pace = sim::measure_pace(request.model, *simulated, request.seed);
  const double per_time = std::max(pace.events_per_time, 1e-300);
  const LiveSimulationPlan plan{
      .path_horizon = request.path_horizon.value_or(kLivePathEvents / per_time),
      .horizon = request.horizon.value_or(kLiveReplicationEvents / per_time)};
  for (const auto& [field, value] : {std::pair{Field::kPathHorizon, plan.path_horizon},
                                     std::pair{Field::kHorizon, plan.horizon}})
    if (!(value > 0) || !std::isfinite(value))
      throw model::InputError(name(field), fmt::format("{}: give a positive time", value));
  if ((plan.path_horizon + 1.1 * plan.horizon * request.replications) * per_time > kMostLiveEvents)
    throw model::InputError(name(Field::kHorizon),
                            "more than 10^9 events in all: give a shorter horizon or fewer "
                            "replications");
  return plan;
}

void live_simulation(const LiveSimulationRequest& request, const LiveSimulationPlan& plan,
                     const LiveEmit& emit, const Cancellation* cancel) {
  const model::Model& model = request.model;
  PathRecorder path(kMostLivePathEvents);
  sample_path({.source = request.source,
               .model = model,
               .policy = request.policy,
               .seed = request.seed,
               .horizon = plan.path_horizon,
               .caller = request.caller},
              path, &path.full());
  if (cancel && *cancel) return;
  if (!emit("path", {{"events", path.take()}, {"horizon", plan.path_horizon}})) return;

  const std::unique_ptr<sim::Policy> simulated = sim::make_policy(request.policy);
  sim::ReplicationPlan replications{.seed = request.seed,
                                    .replications = request.replications,
                                    .warmup = 0.1 * plan.horizon,
                                    .horizon = plan.horizon,
                                    .threads = 1};
  replications.stop = cancel;
  std::vector<sim::ReplicationEstimate> estimates;
  std::uint64_t events = 0;
  double seconds = 0;
  // Two replications a round: an interval needs two, and the page sees it narrow round by round.
  for (int first = 0; first < request.replications; first += 2) {
    if (cancel && *cancel) return;
    const auto started = std::chrono::steady_clock::now();
    sim::ReplicationBatch batch = sim::run_replications(model, *simulated, replications, first,
                                                        std::min(2, request.replications - first));
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    events += batch.events;
    for (auto& e : batch.estimates) estimates.push_back(std::move(e));
    if (batch.cut_short) return;
    const sim::SimulationSummary summary = sim::summarize(model, estimates, events, seconds);
    nlohmann::json j{{"replications", estimates.size()}, {"events", events}};
    put_measures(j, summary, false);
    if (!emit("estimates", j)) return;
  }
}

}  // namespace crawlq::api
