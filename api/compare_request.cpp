#include "api/compare_request.hpp"

#include <memory>

#include "api/json_output.hpp"
#include "api/simulate_request.hpp"
#include "sim/horizon.hpp"
#include "sim/policy.hpp"
#include "sim/warmup.hpp"

namespace crawlq::api {

CompareResult compare(const CompareRequest& request, const Cancellation* cancel) {
  const model::Model& m = request.model;
  const validation::SimulationSettings& settings = request.settings;
  const std::unique_ptr<sim::Policy> a = sim::make_policy(request.a),
                                     b = sim::make_policy(request.b);
  const sim::Pace pace = sim::measure_pace(m, *a, settings.seed);
  require_simulation_fits(m, pace, settings, request.source);
  CompareResult result;
  sim::ReplicationPlan& plan = result.plan;
  plan.seed = settings.seed;
  plan.replications = settings.replications;
  plan.threads = settings.threads;
  plan.horizon = settings.horizon ? *settings.horizon : sim::default_horizon(pace);
  plan.spread = request.spread;
  plan.progress = request.progress;
  plan.stop = cancel;
  plan.warmup =
      settings.warmup ? *settings.warmup : sim::mser5_warmup(m, *a, plan.seed, plan.horizon);
  result.comparison = sim::compare_policies(m, *a, *b, plan);
  return result;
}

nlohmann::json to_json(const CompareRequest& request, const CompareResult& result) {
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
      {"seconds", c.a.seconds + c.b.seconds}};
  put_measures(j["difference"], c.difference, false);
  return j;
}

}  // namespace crawlq::api
