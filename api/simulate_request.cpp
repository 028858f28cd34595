#include "api/simulate_request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "analytic/stationary/memory_estimate.hpp"
#include "api/json_output.hpp"
#include "api/replayed_log.hpp"
#include "api/request_checks.hpp"
#include "model/elapsed.hpp"
#include "model/input_error.hpp"
#include "model/transient_keys.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/horizon.hpp"
#include "sim/policy.hpp"
#include "sim/run_length.hpp"
#include "sim/run_setup.hpp"
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
  // The warm-up, when MSER-5 chooses it, is at most half its pilot of a quarter horizon (a horizon
  // bounds it); the sequential mode needs 2 replications.
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

namespace {

// The warm-up of a transient that starts in the long run, when none is given: MSER-5's truncation
// on a pilot of a quarter of a million pages, and never under the time of this many pages (a start
// taken too early is the empty system's, whatever the pilot's series showed).
constexpr double kLeastWarmupPages = 1e4;

// --from FILE for the simulator: a policy file, whose long run (reached by a warm-up under it) is
// the start, the request's policy taking over at time 0.
model::ControlPolicy warmup_policy_of(const SimulateRequest& request) {
  const std::string& file = request.settings.from_file;
  const std::string given = field_given(request.caller, Field::kFrom, file);
  std::error_code error;
  if (!std::filesystem::exists(file, error))
    throw model::InputError(given, fmt::format("not one of {} and no such file",
                                               analytic::kTransientStartNames.known()));
  if (std::filesystem::path(file).extension() == ".csv" || scenarios::holds_scenario(file))
    throw model::InputError(
        given,
        "the simulator starts empty, full, in the long run, or in the long run of a policy file; "
        "a state distribution or another scenario's long run starts only the exact engine (solve)");
  return scenarios::load_policy(file, request.model);
}

}  // namespace

PreparedTransient prepare_transient(const SimulateRequest& request, const Cancellation* cancel) {
  const model::Model& m = request.model;
  const validation::SimulationSettings& settings = request.settings;
  PreparedTransient prepared;
  prepared.policy = sim::make_policy(request.policy);
  std::optional<model::ControlPolicy> before;
  if (!settings.from_file.empty()) before = warmup_policy_of(request);
  if (before) prepared.warmup_policy = sim::make_policy(*before);
  sim::TransientPlan& plan = prepared.plan;
  plan.seed = settings.seed;
  plan.replications = settings.replications;
  plan.threads = settings.threads;
  plan.times = settings.times;
  plan.outage = settings.outage;
  plan.stop = cancel;
  plan.progress = request.progress;
  const bool settled = before || settings.from == analytic::TransientStart::kStationary;
  const sim::Policy& warming = prepared.warmup_policy ? *prepared.warmup_policy : *prepared.policy;
  const sim::Pace pace = sim::measure_pace(m, warming, settings.seed);
  if (settled) {
    const double pilot = sim::default_horizon(pace);
    plan.warmup = settings.warmup ? *settings.warmup
                                  : std::max(sim::mser5_warmup(m, warming, settings.seed, pilot),
                                             kLeastWarmupPages / pace.pages_per_time);
    plan.warmup_policy = prepared.warmup_policy.get();
  } else {
    try {
      plan.start = sim::fresh_start(
          m, request.policy, settings.from == analytic::TransientStart::kFull ? m.capacity : 0);
    } catch (const std::invalid_argument& e) {
      throw model::InputError(field_given(request.caller, Field::kFrom,
                                          analytic::kTransientStartNames.name(settings.from)),
                              e.what());
    }
  }
  prepared.events =
      (plan.warmup + settings.times.back()) * pace.events_per_time * settings.replications;
  return prepared;
}

void require_transient_fits(const SimulateRequest& request, double events) {
  const validation::SimulationSettings& settings = request.settings;
  // Refused before it runs when even a fast machine could not finish it in the time limit.
  const double seconds = events / kFastestEventsPerSecond;
  if (seconds > settings.time_limit)
    throw model::InputError(fmt::format(
        "{}: {} replications to time {:.6g} take about {:.3g} events, {:.3g} s even at {:.0e} events "
        "a second: more than {} {} s (raise it, or ask for fewer replications or earlier times)",
        request.source, settings.replications, settings.times.back(), events, seconds,
        kFastestEventsPerSecond, field_name(request.caller, Field::kTimeLimit),
        settings.time_limit));
}

void start_clock(sim::TransientPlan& plan, double time_limit) {
  plan.deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(time_limit));
}

void require_two_replications(const SimulateRequest& request, int replications) {
  if (replications >= 2) return;
  throw model::InputError(fmt::format(
      "{}: {} {} s: {} replication{} finished within it, and an interval needs 2; give a longer "
      "time limit or earlier times",
      request.source, field_name(request.caller, Field::kTimeLimit), request.settings.time_limit,
      replications, replications == 1 ? "" : "s"));
}

namespace {

SimulateResult simulate_over_time(const SimulateRequest& request, const Cancellation* cancel) {
  PreparedTransient prepared = prepare_transient(request, cancel);
  require_transient_fits(request, prepared.events);
  start_clock(prepared.plan, request.settings.time_limit);
  SimulateResult result;
  result.plan.seed = request.settings.seed;
  result.plan.warmup = prepared.plan.warmup;
  result.plan.threads = request.settings.threads;
  result.transient = sim::simulate_transient(request.model, *prepared.policy, prepared.plan);
  if (cancel && *cancel) throw Cancelled();
  require_two_replications(request, result.transient->replications);
  result.plan.replications = result.transient->replications;
  return result;
}

}  // namespace

SimulateResult simulate(const SimulateRequest& request, const Cancellation* cancel) {
  if (request.model.rhythm && !request.settings.times.empty())
    throw model::InputError(
        std::string(field_name(request.caller, Field::kTimes)),
        "a transient under a rhythm is not simulated yet; simulate gives the periodic long run");
  if (!request.settings.arrivals_log.empty() && !request.model.replayed_arrivals) {
    SimulateRequest replay = request;
    replay.model = with_replayed_log(request.model, request.settings, request.caller);
    SimulateResult result = simulate(replay, cancel);
    result.replayed_arrivals = replayed_log_json(replay.model);
    return result;
  }
  if (!request.settings.times.empty()) return simulate_over_time(request, cancel);
  const model::Model& m = request.model;
  const validation::SimulationSettings& settings = request.settings;
  const std::unique_ptr<sim::Policy> simulated = sim::make_policy(m, request.policy);
  SimulateResult result;
  sim::ReplicationPlan& plan = result.plan;
  plan.seed = settings.seed;
  plan.replications = settings.replications;
  plan.threads = settings.threads;
  const auto start = std::chrono::steady_clock::now();
  const sim::Pace pace = sim::measure_pace(m, *simulated, settings.seed);
  require_simulation_fits(m, pace, settings, request.source);
  plan.spread = request.spread;
  plan.progress = request.progress;
  plan.stop = cancel;
  // Every process runs the same pilots, so every process plans the same run.
  const sim::RunLength length =
      sim::run_length(m, *simulated, plan.seed, settings.horizon, settings.warmup, pace);
  plan.horizon = length.horizon;
  plan.warmup = length.warmup;
  result.seconds_warmup = model::seconds_since(start);
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

namespace {
// A rate over a stretch of no length has no estimate: null, as JSON has no NaN.
nlohmann::json estimate_json(const sim::Interval& i) {
  if (std::isnan(i.mean)) return {{"mean", nullptr}, {"half_width", nullptr}};
  return interval_json(i);
}
}  // namespace

nlohmann::json transient_points_json(const sim::TransientSimulation& t) {
  nlohmann::json times = nlohmann::json::array();
  for (const sim::TransientPointEstimate& p : t.points) {
    nlohmann::json point{{"t", p.t},
                         {"level_probabilities", intervals_json(p.level_probabilities)}};
    for (const model::TransientKeyName& key : model::kTransientKeys)
      point[std::string(key.json)] = estimate_json(p[key.key]);
    times.push_back(std::move(point));
  }
  return times;
}

namespace {

nlohmann::json transient_json(const SimulateRequest& request, const SimulateResult& result) {
  const sim::TransientSimulation& t = *result.transient;
  const validation::SimulationSettings& settings = request.settings;
  nlohmann::json j{{"policy", control_policy_json(request.policy)},
                   {"from", settings.from_file.empty()
                                ? std::string(analytic::kTransientStartNames.name(settings.from))
                                : settings.from_file},
                   {"outage", settings.outage},
                   {"times", transient_points_json(t)},
                   {"replications", t.replications},
                   {"seed", settings.seed},
                   {"warmup", result.plan.warmup},
                   {"events", t.events},
                   {"seconds", t.seconds},
                   {"time_unit", request.model.time_unit}};
  if (!result.replayed_arrivals.is_null()) j["arrivals_log"] = result.replayed_arrivals;
  return j;
}

// Under a rhythm, each piece's estimates: the same keys as solve's `pieces`, each an interval.
nlohmann::json simulated_pieces_json(const model::Rhythm& rhythm,
                                     const std::vector<sim::PieceEstimate<sim::Interval>>& pieces) {
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    nlohmann::json j{{"start", rhythm.piece_start(i)},
                     {"length", rhythm.piece_length()},
                     {"scale", rhythm.scales[i]},
                     {"p_served_by_arrival", interval_json(pieces[i].p_served_by_arrival)},
                     {"p_obsolete_by_arrival", interval_json(pieces[i].p_obsolete_by_arrival)}};
    put_measures(j, pieces[i]);
    list.push_back(std::move(j));
  }
  return list;
}
}  // namespace

nlohmann::json to_json(const SimulateRequest& request, const SimulateResult& result) {
  if (result.transient) return transient_json(request, result);
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
                   {"seconds", result.seconds_warmup + s.seconds},
                   {"seconds_warmup", result.seconds_warmup},
                   {"seconds_replications", s.seconds},
                   {"time_unit", request.model.time_unit}};
  if (request.settings.precision > 0) {
    j["precision"] = request.settings.precision;
    j["precise"] = result.precise;
  }
  j["fewest_pages"] = s.fewest_pages;
  if (!result.replayed_arrivals.is_null()) j["arrivals_log"] = result.replayed_arrivals;
  if (const auto& rhythm = request.model.rhythm) {
    j["rhythm"] = rhythm_keys_json(*rhythm);
    j["pieces"] = simulated_pieces_json(*rhythm, s.pieces);
  }
  put_measures(j, s);
  return j;
}

}  // namespace crawlq::api
