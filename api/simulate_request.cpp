#include "api/simulate_request.hpp"

#include <fmt/format.h>

#include "analytic/stationary/memory_estimate.hpp"
#include "api/json_output.hpp"
#include "model/input_error.hpp"
#include "sim/horizon.hpp"
#include "sim/policy.hpp"
#include "sim/warmup.hpp"

namespace crawlq::api {

namespace {

// A generous speed (the event loop does 20 to 40 million events a second on one core), so that only
// runs that surely cannot finish are refused.
constexpr double kFastestEventsPerSecond = 1e8;
}  // namespace

void require_simulation_fits(const model::Model& model, const sim::Pace& pace,
                             const validation::SimulationSettings& s, const std::string& source) {
  const double available = 0.5 * analytic::physical_memory_bytes();
  const double per_replication = sim::replication_bytes(model);
  if (s.replications * per_replication > available)
    throw model::InputError(fmt::format(
        "--replications {}: would hold {:.3g} GiB of estimates; at most {} fit in memory",
        s.replications, s.replications * per_replication / (1 << 30),
        static_cast<long long>(available / per_replication)));
  const double horizon = s.horizon ? *s.horizon : sim::default_horizon(pace);
  // The warm-up pilot, when there is one, runs a horizon too; the sequential mode needs 2
  // replications.
  const double length = horizon + s.warmup.value_or(horizon);
  const double seconds_each = length * pace.events_per_time / kFastestEventsPerSecond;
  const double runs = s.precision > 0 ? 2 : s.replications;
  if (seconds_each * runs <= s.time_limit) return;
  throw model::InputError(fmt::format(
      "{}: {} {:.6g}: each replication has about {:.3g} events at the pace it keeps, {:.3g} s even at {:.0e} events a "
      "second; {} of them take more than --time-limit {} s (raise it, or shorten the run)",
      source, s.horizon ? "--horizon" : (s.warmup ? "--warmup" : "the default horizon"),
      s.horizon ? *s.horizon : (s.warmup ? *s.warmup : horizon),
      seconds_each * kFastestEventsPerSecond, seconds_each, kFastestEventsPerSecond, runs,
      s.time_limit));
}

SimulateResult simulate(const SimulateRequest& request, const Cancellation* cancel) {
  const model::Model& m = request.model;
  const validation::SimulationSettings& settings = request.settings;
  const std::unique_ptr<sim::Policy> simulated = sim::make_policy(request.policy);
  SimulateResult result;
  sim::ReplicationPlan& plan = result.plan;
  plan.seed = settings.seed;
  plan.replications = settings.replications;
  plan.threads = settings.threads;
  const sim::Pace pace = sim::measure_pace(m, *simulated, settings.seed);
  require_simulation_fits(m, pace, settings, request.source);
  plan.horizon = settings.horizon ? *settings.horizon : sim::default_horizon(pace);
  plan.spread = request.spread;
  plan.progress = request.progress;
  plan.stop = cancel;
  // Without a warm-up given, MSER-5 on a pilot run of one horizon decides (every process runs that
  // pilot).
  plan.warmup = settings.warmup ? *settings.warmup
                                : sim::mser5_warmup(m, *simulated, plan.seed, plan.horizon);
  if (settings.precision == 0) {
    result.summary = sim::simulate(m, *simulated, plan);
  } else {
    auto sequential =
        sim::simulate_to_precision(m, *simulated, plan, settings.precision, settings.time_limit);
    result.precise = sequential.precise;
    result.summary = std::move(sequential.summary);
  }
  const std::size_t replications = result.summary.replications.size();
  if (replications < 2)
    throw model::InputError(fmt::format(
        "{}: --time-limit {} s: {} replication{} of {:.6g} time units finished within it, and an interval needs 2; "
        "give a shorter --horizon or a longer --time-limit",
        request.source, settings.time_limit, replications, replications == 1 ? "" : "s",
        plan.horizon));
  return result;
}

nlohmann::json to_json(const SimulateRequest& request, const SimulateResult& result) {
  const sim::SimulationSummary& s = result.summary;
  const sim::ReplicationPlan& plan = result.plan;
  nlohmann::json j{{"policy", control_policy_json(request.policy)},
                   {"sojourn_served_quantiles",
                    {{"median", interval_json(s.served_median)},
                     {"p90", interval_json(s.served_p90)},
                     {"p99", interval_json(s.served_p99)}}},
                   {"sojourn_served_histogram",
                    {{"edges", s.served_histogram.edges},
                     {"density", intervals_json(s.served_histogram.density)}}},
                   {"events", s.events},
                   {"replications", s.replications.size()},
                   {"seed", plan.seed},
                   {"horizon", plan.horizon},
                   {"warmup", plan.warmup},
                   {"warmup_rule", request.settings.warmup ? "given" : "mser-5"},
                   {"seconds", s.seconds}};
  if (request.settings.precision > 0) {
    j["precision"] = request.settings.precision;
    j["precise"] = result.precise;
  }
  j["fewest_pages"] = s.fewest_pages;
  put_measures(j, s);
  return j;
}

}  // namespace crawlq::api
