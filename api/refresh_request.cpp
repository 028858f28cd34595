#include "api/refresh_request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analytic/stationary/memory_estimate.hpp"
#include "api/json_output.hpp"
#include "model/input_error.hpp"

namespace crawlq::api {

namespace {

// Each page read about 2000 times per replication: r_i is then known to a few per cent or better.
double default_horizon(const model::RefreshModel& m) {
  return 2000.0 * m.pages() * m.access_time.mean();
}

// Reads one command may simulate: 15 to 55 million a second on one core (benchmarks/refresh_speed),
// so at most a few minutes; beyond that a run looks like a hang.
constexpr double kReadBudget = 5e9;

// Leave a fifth of the machine to everything else, as the exact engine's check does.
double refresh_budget_bytes() { return 0.8 * analytic::physical_memory_bytes(); }

double checked_horizon(const model::RefreshModel& m, const RefreshRequest& o) {
  if (o.horizon && (!std::isfinite(*o.horizon) || *o.horizon <= 0))
    throw model::InputError(fmt::format("{}: {}: must be a finite positive time",
                                        field_name(o.caller, Field::kHorizon), *o.horizon));
  const double horizon = o.horizon.value_or(default_horizon(m));
  if (!std::isfinite(horizon * 1.05))
    throw model::InputError(
        fmt::format("{}: the default 2000 N E[X] for {} pages of E[X] = {} is beyond the largest "
                    "double; give a horizon",
                    field_name(o.caller, Field::kHorizon), m.pages(), m.access_time.mean()));
  return horizon;
}

// The reads and the memory the run will take, against kReadBudget and the machine: a horizon too
// long for even 2 replications is the horizon's fault, otherwise the number of replications is.
void require_simulation_fits(const sim::RefreshSimulationNeed& need, const RefreshRequest& o,
                             double horizon) {
  const double per_replication = need.reads_per_replication;
  if (need.reads(2) > kReadBudget) {
    const double largest = (kReadBudget / 2 - 1) * (horizon / (per_replication - 1));
    throw model::InputError(fmt::format(
        "{}: {}{}: about {:.3g} reads per replication, more than the {:.3g} reads this command simulates "
        "even for 2 replications; the largest horizon allowed is {:.6g}",
        field_name(o.caller, Field::kHorizon), horizon,
        o.horizon ? "" : " (the default, 2000 N E[X])", per_replication, kReadBudget, largest));
  }
  const double by_time = std::floor(kReadBudget / per_replication);
  const double by_memory =
      std::floor((refresh_budget_bytes() - need.fixed_bytes) / need.bytes_per_replication);
  const double largest = std::min(by_time, by_memory);
  if (o.replications <= largest) return;
  throw model::InputError(fmt::format(
      "{}: {}: needs about {:.3g} reads and {:.3g} GiB, more than the {:.3g} reads this command simulates "
      "and the {:.3g} GiB this machine can give; the largest allowed is {}",
      field_name(o.caller, Field::kReplications), o.replications, need.reads(o.replications),
      need.bytes(o.replications) / (1 << 30), kReadBudget, refresh_budget_bytes() / (1 << 30),
      largest < 2 ? "none: even 2 do not fit" : fmt::format("{:.0f}", largest)));
}

sim::RefreshSimulationResult run_simulation(const model::RefreshModel& m,
                                            const analytic::RefreshAnalysis& a,
                                            const RefreshRequest& o,
                                            sim::RefreshSimulationPlan& plan) {
  plan.seed = o.seed;
  plan.replications = o.replications;
  plan.horizon = checked_horizon(m, o);
  plan.warmup = plan.horizon / 20;
  plan.threads = o.threads;
  sim::AccessOrder order = m.policy.kind == model::RefreshPolicyKind::kRandomized
                               ? sim::AccessOrder(sim::RandomizedOrder{a.frequencies})
                               : sim::AccessOrder(sim::CyclicOrder{a.cycle});
  require_simulation_fits(sim::estimate_refresh_simulation(m, order, plan.horizon, plan.warmup), o,
                          plan.horizon);
  return sim::simulate_refresh(m, order, plan);
}

}  // namespace

const char* refresh_kind_name(model::RefreshPolicyKind kind) {
  return model::kRefreshPolicyNames.name(kind).data();
}

bool RefreshRequest::is_valid(std::string* why) const {
  std::string problem;
  if (simulate && replications < 2)
    problem = fmt::format("{}: {}: need at least 2 for an interval",
                          field_name(caller, Field::kReplications), replications);
  else if (threads < 0)
    problem = fmt::format("{}: {}: must be >= 0 (0: all cores)",
                          field_name(caller, Field::kThreads), threads);
  return model::valid_unless(std::move(problem), why);
}

RefreshResult refresh(const RefreshRequest& request) {
  if (std::string why; !request.is_valid(&why)) throw model::InputError(why);
  const model::RefreshModel& m = request.model;
  RefreshResult result;
  try {
    result.analysis = analytic::analyze_refresh(m, refresh_budget_bytes());
  } catch (const std::invalid_argument& e) {
    throw model::InputError(fmt::format("{}: refresh.policy.cycle: {}", request.source, e.what()));
  }
  if (request.simulate) result.simulated = run_simulation(m, result.analysis, request, result.plan);
  return result;
}

nlohmann::json to_json(const RefreshRequest& request, const RefreshResult& result) {
  const model::RefreshModel& m = request.model;
  const analytic::RefreshAnalysis& a = result.analysis;
  const std::optional<sim::RefreshSimulationResult>& simulated = result.simulated;
  const sim::RefreshSimulationPlan& plan = result.plan;
  nlohmann::json j{{"name", m.name},
                   {"time_unit", m.time_unit},
                   {"policy", {{"kind", refresh_kind_name(m.policy.kind)}}},
                   {"frequencies", a.frequencies},
                   {"obsolescence_rates", a.obsolescence_rates},
                   {"cost", a.cost},
                   {"lower_bound", a.lower_bound.cost},
                   {"lower_bound_frequencies", a.lower_bound.frequencies},
                   {"lower_bound_closed_form", a.lower_bound.closed_form},
                   {"cost_over_lower_bound", a.cost_over_lower_bound},
                   {"h", a.h},
                   {"mean_access_time", a.mean_access_time},
                   {"randomized_optimum",
                    {{"frequencies", a.randomized.frequencies},
                     {"cost", a.randomized.cost},
                     {"closed_form", a.randomized.closed_form},
                     {"validity_condition_holds", a.randomized.validity_condition_holds}}}};
  if (!a.cycle.empty()) {
    j["policy"]["cycle"] = a.cycle;
    j["policy"]["cycle_length"] = a.cycle.size();
  }
  if (!a.cycle_counts.empty()) j["policy"]["cycle_counts"] = a.cycle_counts;
  if (m.weights_proportional_to_rates())
    j["golden_ratio_limit"] = {
        {"q", a.change_per_read},
        {"ratio", a.golden_ratio_limit},
        {"two_phi_squared_over_five", analytic::two_phi_squared_over_five()}};
  if (simulated) {
    nlohmann::json rates = nlohmann::json::array();
    for (const auto& r : simulated->obsolescence_rates) rates.push_back(interval_json(r));
    j["simulated"] = {{"obsolescence_rates", rates},       {"cost", interval_json(simulated->cost)},
                      {"replications", plan.replications}, {"seed", plan.seed},
                      {"horizon", plan.horizon},           {"warmup", plan.warmup},
                      {"accesses", simulated->accesses},   {"seconds", simulated->seconds}};
  }
  return j;
}

}  // namespace crawlq::api
