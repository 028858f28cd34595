#include "validation/policy_simulation.hpp"

namespace crawlq::validation {

sim::ReplicationPlan PolicySimulation::plan(const model::Model& model, int replications,
                                            double horizon_share) const {
  const double horizon = sim::busiest_mode_horizon(model) * horizon_share;
  return {.seed = seed_,
          .replications = replications,
          .warmup = horizon / 20,
          .horizon = horizon,
          .threads = threads_};
}

sim::Interval PolicySimulation::cost(const model::Model& model, const model::Policy& policy,
                                     double precision) const {
  const sim::LevelMapPolicy simulated(policy);
  if (quick_) return sim::simulate(model, simulated, plan(model, 4, 0.25)).cost;
  // The cost alone decides: a rare loss (K = 30) would hold a 1% target on P_loss for ever.
  return sim::simulate_to_precision(model, simulated, plan(model, 10, 1.0), precision, 20.0,
                                    {&sim::SimulationSummary::cost})
      .summary.cost;
}

sim::Interval PolicySimulation::cost_point(const model::Model& model,
                                           const model::Policy& policy) const {
  const sim::LevelMapPolicy simulated(policy);
  return sim::simulate(model, simulated, quick_ ? plan(model, 3, 0.25) : plan(model, 10, 1.0)).cost;
}

sim::Interval PolicySimulation::cost_difference(const model::Model& model, const model::Policy& a,
                                                const model::Policy& b) const {
  const sim::LevelMapPolicy simulated_a(a), simulated_b(b);
  return sim::compare_policies(model, simulated_a, simulated_b,
                               quick_ ? plan(model, 4, 0.25) : plan(model, 20, 1.0))
      .difference.cost;
}

}  // namespace crawlq::validation
