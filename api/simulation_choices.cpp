#include "api/simulation_choices.hpp"

#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "api/replayed_log.hpp"
#include "api/simulate_request.hpp"
#include "api/transient_fields.hpp"
#include "model/input_error.hpp"
#include "sim/horizon.hpp"
#include "sim/policy.hpp"

namespace crawlq::api {

namespace {

// Why the settings cannot run, naming the field in the caller's words; empty when they can.
std::string settings_problem(const validation::SimulationSettings& s, Caller caller) {
  const auto name = [caller](Field field) { return field_name(caller, field); };
  if (s.horizon && (!std::isfinite(*s.horizon) || *s.horizon <= 0))
    return fmt::format("{}: {}: must be a finite positive time", name(Field::kHorizon), *s.horizon);
  if (s.warmup && (!std::isfinite(*s.warmup) || *s.warmup < 0))
    return fmt::format("{}: {}: must be a finite time >= 0", name(Field::kWarmup), *s.warmup);
  if (s.replications < 2)
    return fmt::format("{}: {}: need at least 2 for an interval", name(Field::kReplications),
                       s.replications);
  if (!(s.precision >= 0 && s.precision < 1))
    return fmt::format("{}: {}: give a relative half-width in (0, 1), e.g. 0.01",
                       name(Field::kPrecision), s.precision);
  if (!(s.time_limit > 0) || !std::isfinite(s.time_limit))
    return fmt::format("{}: {}: must be a finite positive number of seconds",
                       name(Field::kTimeLimit), s.time_limit);
  if (s.threads < 0)
    return fmt::format("{}: {}: must be 0 (all cores) or more", name(Field::kThreads), s.threads);
  for (const auto& [field, gap] :
       {std::pair{Field::kBatchGap, s.batch_gap}, std::pair{Field::kCensorGap, s.censor_gap}}) {
    if (!gap) continue;
    if (s.arrivals_log.empty())
      return fmt::format("{}: {}: cuts the log of {}; give {} too", name(field), *gap,
                         name(Field::kArrivalsLog), name(Field::kArrivalsLog));
    if (!(*gap >= 0) || !std::isfinite(*gap))
      return fmt::format("{}: {}: give a time >= 0", name(field), *gap);
  }
  return "";
}

}  // namespace

namespace {
// A transient runs exactly its replications, each to the last time: the settings of a long run
// that do not apply are refused rather than ignored.
validation::SimulationSettings transient_settings(const SimulationChoices& c, Caller caller) {
  const auto name = [caller](Field field) { return field_name(caller, field); };
  if (c.precision && *c.precision > 0)
    throw model::InputError(fmt::format(
        "{}: {}: a transient runs exactly {} replications (default {}), each to the last time",
        name(Field::kPrecision), *c.precision, name(Field::kReplications), kTransientReplications));
  if (c.horizon)
    throw model::InputError(
        fmt::format("{}: {}: a transient runs each replication to its last time",
                    name(Field::kHorizon), *c.horizon));
  validation::SimulationSettings settings{
      .seed = c.seed,
      .replications = c.replications.value_or(kTransientReplications),
      .warmup = c.warmup,
      .threads = c.threads,
      .precision = 0,
      .time_limit = c.time_limit,
      .times = c.times,
      .outage = c.outage,
      .arrivals_log = c.arrivals_log,
      .batch_gap = c.batch_gap,
      .censor_gap = c.censor_gap,
      .full_chain = c.full_chain};
  if (analytic::kTransientStartNames.contains(c.from))
    settings.from = analytic::kTransientStartNames.parse(c.from);
  else
    settings.from_file = c.from;
  return settings;
}
}  // namespace

validation::SimulationSettings simulation_settings(const SimulationChoices& c, Caller caller) {
  if (const std::string problem =
          transient_problem(caller, c.times, c.outage, c.outage > 0 || c.from != "empty");
      !problem.empty())
    throw model::InputError(problem);
  if (!c.times.empty()) {
    const validation::SimulationSettings settings = transient_settings(c, caller);
    if (const std::string why = settings_problem(settings, caller); !why.empty())
      throw model::InputError(why);
    return settings;
  }
  const bool replications_alone = c.replications && !c.precision;
  const validation::SimulationSettings settings{
      .seed = c.seed,
      .replications = c.replications.value_or(10),
      .horizon = c.horizon,
      .warmup = c.warmup,
      .threads = c.threads,
      .precision = replications_alone ? 0.0 : c.precision.value_or(0.01),
      .time_limit = c.time_limit,
      .arrivals_log = c.arrivals_log,
      .batch_gap = c.batch_gap,
      .censor_gap = c.censor_gap,
      .full_chain = c.full_chain};
  if (const std::string why = settings_problem(settings, caller); !why.empty())
    throw model::InputError(why);
  return settings;
}

double validation_horizon(const model::Model& simulated, const model::ControlPolicy& policy,
                          const validation::SimulationSettings& settings, const std::string& source,
                          Caller caller) {
  // A log replayed in place of the arrival law sets the pace the run keeps, not the fitted law.
  if (!settings.arrivals_log.empty() && !simulated.replayed_arrivals)
    return validation_horizon(with_replayed_log(simulated, settings, caller), policy, settings,
                              source, caller);
  const std::unique_ptr<sim::Policy> simulated_policy = sim::make_policy(simulated, policy);
  const sim::Pace pace = sim::measure_pace(simulated, *simulated_policy, settings.seed);
  require_simulation_fits(simulated, pace, settings, source);
  return settings.horizon.value_or(sim::default_horizon(pace));
}

}  // namespace crawlq::api
