#include "api/compare_request.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>

#include "api/json_output.hpp"
#include "api/replayed_log.hpp"
#include "api/request_checks.hpp"
#include "api/simulate_request.hpp"
#include "model/elapsed.hpp"
#include "sim/horizon.hpp"
#include "sim/policy.hpp"
#include "sim/run_length.hpp"

namespace crawlq::api {

namespace {

// --times: both policies' transients from their starts on common random numbers.
CompareResult compare_over_time(const CompareRequest& request, const Cancellation* cancel) {
  const auto as_simulation = [&](const model::ControlPolicy& policy) {
    return SimulateRequest{.source = request.source,
                           .model = request.model,
                           .policy = policy,
                           .settings = request.settings,
                           .progress = request.progress,
                           .caller = request.caller};
  };
  const SimulateRequest for_a = as_simulation(request.a), for_b = as_simulation(request.b);
  PreparedTransient a = prepare_transient(for_a, cancel), b = prepare_transient(for_b, cancel);
  require_transient_fits(for_a, a.events + b.events);
  start_clock(a.plan, request.settings.time_limit);
  b.plan.deadline = a.plan.deadline;
  CompareResult result;
  result.plan.seed = request.settings.seed;
  result.plan.warmup = std::max(a.plan.warmup, b.plan.warmup);
  result.transient = sim::compare_transient(request.model, *a.policy, a.plan, *b.policy, b.plan);
  if (cancel && *cancel) throw Cancelled();
  require_two_replications(for_a, result.transient->difference.replications);
  result.plan.replications = result.transient->difference.replications;
  return result;
}

nlohmann::json transient_json(const CompareRequest& request, const CompareResult& result) {
  const sim::TransientComparison& c = *result.transient;
  const validation::SimulationSettings& s = request.settings;
  return {
      {"a", {{"policy", control_policy_json(request.a)}, {"times", transient_points_json(c.a)}}},
      {"b", {{"policy", control_policy_json(request.b)}, {"times", transient_points_json(c.b)}}},
      {"difference", {{"times", transient_points_json(c.difference)}}},
      {"from", s.from_file.empty() ? std::string(analytic::kTransientStartNames.name(s.from))
                                   : s.from_file},
      {"outage", s.outage},
      {"replications", result.plan.replications},
      {"seed", s.seed},
      {"events", c.difference.events},
      {"seconds", c.difference.seconds}};
}

}  // namespace

CompareResult compare(const CompareRequest& request, const Cancellation* cancel) {
  require_no_rhythm(request.model, request.source, "compare");
  if (!request.settings.arrivals_log.empty() && !request.model.replayed_arrivals) {
    CompareRequest replay = request;
    replay.model = with_replayed_log(request.model, request.settings, request.caller);
    return compare(replay, cancel);
  }
  if (!request.settings.times.empty()) return compare_over_time(request, cancel);
  const model::Model& m = request.model;
  const validation::SimulationSettings& settings = request.settings;
  const std::unique_ptr<sim::Policy> a = sim::make_policy(request.a),
                                     b = sim::make_policy(request.b);
  const auto start = std::chrono::steady_clock::now();
  const sim::Pace pace = sim::measure_pace(m, *a, settings.seed);
  require_simulation_fits(m, pace, settings, request.source);
  CompareResult result;
  sim::ReplicationPlan& plan = result.plan;
  plan.seed = settings.seed;
  plan.replications = settings.replications;
  plan.threads = settings.threads;
  plan.spread = request.spread;
  plan.progress = request.progress;
  plan.stop = cancel;
  // Policy A's pace and warm-up: both policies run on the same random numbers for as long.
  const sim::RunLength length =
      sim::run_length(m, *a, plan.seed, settings.horizon, settings.warmup, pace);
  plan.horizon = length.horizon;
  plan.warmup = length.warmup;
  result.seconds_warmup = model::seconds_since(start);
  result.comparison = sim::compare_policies(m, *a, *b, plan);
  return result;
}

nlohmann::json to_json(const CompareRequest& request, const CompareResult& result) {
  if (result.transient) return transient_json(request, result);
  const sim::PolicyComparison& c = result.comparison;
  const sim::ReplicationPlan& plan = result.plan;
  nlohmann::json j{
      {"a", {{"policy", control_policy_json(request.a)}, {"cost", interval_json(c.a.cost)}}},
      {"b", {{"policy", control_policy_json(request.b)}, {"cost", interval_json(c.b.cost)}}},
      {"difference", nlohmann::json::object()},
      {"independent_cost_half_width", c.independent_cost_half_width},
      {"events", c.a.events + c.b.events},
      {"replications", plan.replications},
      {"seed", plan.seed},
      {"horizon", plan.horizon},
      {"warmup", plan.warmup},
      {"seconds", result.seconds_warmup + c.a.seconds + c.b.seconds},
      {"seconds_warmup", result.seconds_warmup},
      {"seconds_replications", c.a.seconds + c.b.seconds}};
  put_measures(j["difference"], c.difference, false);
  return j;
}

}  // namespace crawlq::api
