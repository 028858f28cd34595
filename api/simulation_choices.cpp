#include "api/simulation_choices.hpp"

#include <memory>

#include "api/simulate_request.hpp"
#include "model/input_error.hpp"
#include "sim/horizon.hpp"
#include "sim/policy.hpp"

namespace crawlq::api {

validation::SimulationSettings simulation_settings(const SimulationChoices& c, Caller caller) {
  const bool replications_alone = c.replications && !c.precision;
  const validation::SimulationSettings settings{
      .seed = c.seed,
      .replications = c.replications.value_or(10),
      .horizon = c.horizon,
      .warmup = c.warmup,
      .threads = c.threads,
      .precision = replications_alone ? 0.0 : c.precision.value_or(0.01),
      .time_limit = c.time_limit};
  if (std::string why; !settings.is_valid(&why))
    throw model::InputError(in_callers_words(caller, why));
  return settings;
}

double validation_horizon(const model::Model& simulated, const model::ControlPolicy& policy,
                          const validation::SimulationSettings& settings,
                          const std::string& source) {
  const std::unique_ptr<sim::Policy> simulated_policy = sim::make_policy(policy);
  const sim::Pace pace = sim::measure_pace(simulated, *simulated_policy, settings.seed);
  require_simulation_fits(simulated, pace, settings, source);
  return settings.horizon.value_or(sim::default_horizon(pace));
}

}  // namespace crawlq::api
