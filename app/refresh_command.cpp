#include "app/refresh_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "analytic/memory_estimate.hpp"
#include "analytic/refresh_analysis.hpp"
#include "app/command_support.hpp"
#include "api/json_output.hpp"
#include "scenarios/refresh_loader.hpp"
#include "sim/refresh_simulator.hpp"

namespace crawlq::app {

namespace {

struct RefreshOptions {
  std::string file;
  bool simulate = false;
  std::string seed = "1";
  int replications = 10;
  std::optional<double> horizon;
  int threads = 0;
  bool json = false;
};

const char* kind_name(model::RefreshPolicyKind kind) {
  switch (kind) {
    case model::RefreshPolicyKind::kRandomized: return "randomized";
    case model::RefreshPolicyKind::kCyclic: return "cyclic";
    case model::RefreshPolicyKind::kGoldenRatio: return "golden-ratio";
  }
  return "";
}

// Each page read about 2000 times per replication: r_i is then known to a few per cent or better.
double default_horizon(const model::RefreshModel& m) { return 2000.0 * m.pages() * m.access_time.mean(); }

// Reads one command may simulate: 15 to 55 million a second on one core (benchmarks/refresh_speed),
// so at most a few minutes; beyond that a run looks like a hang.
constexpr double kReadBudget = 5e9;

// Leave a fifth of the machine to everything else, as the exact engine's check does.
double available_bytes() { return 0.8 * analytic::physical_memory_bytes(); }

double checked_horizon(const model::RefreshModel& m, const RefreshOptions& o) {
  if (o.horizon && (!std::isfinite(*o.horizon) || *o.horizon <= 0))
    throw UsageError(fmt::format("--horizon: {}: must be a finite positive time", *o.horizon));
  const double horizon = o.horizon.value_or(default_horizon(m));
  if (!std::isfinite(horizon * 1.05))
    throw UsageError(fmt::format("--horizon: the default 2000 N E[X] for {} pages of E[X] = {} is beyond the largest "
                                 "double; give a horizon",
                                 m.pages(), m.access_time.mean()));
  return horizon;
}

// The reads and the memory the run will take, against kReadBudget and the machine: a horizon too
// long for even 2 replications is the horizon's fault, otherwise the number of replications is.
void require_simulation_fits(const sim::RefreshSimulationNeed& need, const RefreshOptions& o, double horizon) {
  const double per_replication = need.reads_per_replication;
  if (need.reads(2) > kReadBudget) {
    const double largest = (kReadBudget / 2 - 1) * (horizon / (per_replication - 1));
    throw UsageError(fmt::format(
        "--horizon: {}{}: about {:.3g} reads per replication, more than the {:.3g} reads this command simulates "
        "even for 2 replications; the largest horizon allowed is {:.6g}",
        horizon, o.horizon ? "" : " (the default, 2000 N E[X])", per_replication, kReadBudget, largest));
  }
  const double by_time = std::floor(kReadBudget / per_replication);
  const double by_memory = std::floor((available_bytes() - need.fixed_bytes) / need.bytes_per_replication);
  const double largest = std::min(by_time, by_memory);
  if (o.replications <= largest) return;
  throw UsageError(fmt::format(
      "--replications: {}: needs about {:.3g} reads and {:.3g} GiB, more than the {:.3g} reads this command simulates "
      "and the {:.3g} GiB this machine can give; the largest allowed is {}",
      o.replications, need.reads(o.replications), need.bytes(o.replications) / (1 << 30), kReadBudget,
      available_bytes() / (1 << 30), largest < 2 ? "none: even 2 do not fit" : fmt::format("{:.0f}", largest)));
}

sim::RefreshSimulationResult run_simulation(const model::RefreshModel& m, const analytic::RefreshAnalysis& a,
                                            const RefreshOptions& o, sim::RefreshSimulationPlan& plan) {
  if (o.replications < 2) throw UsageError(fmt::format("--replications: {}: need at least 2 for an interval", o.replications));
  plan.seed = parse_seed(o.seed);
  plan.replications = o.replications;
  plan.horizon = checked_horizon(m, o);
  plan.warmup = plan.horizon / 20;
  plan.threads = o.threads;
  sim::AccessOrder order = m.policy.kind == model::RefreshPolicyKind::kRandomized
                               ? sim::AccessOrder(sim::RandomizedOrder{a.frequencies})
                               : sim::AccessOrder(sim::CyclicOrder{a.cycle});
  require_simulation_fits(sim::estimate_refresh_simulation(m, order, plan.horizon, plan.warmup), o, plan.horizon);
  return sim::simulate_refresh(m, order, plan);
}

void print_readable(const scenarios::RefreshScenario& s, const analytic::RefreshAnalysis& a,
                    const std::optional<sim::RefreshSimulationResult>& simulated, const RefreshOptions& o,
                    const sim::RefreshSimulationPlan& plan) {
  const model::RefreshModel& m = s.model;
  fmt::print("{} ({}): {} pages, {} policy, E[X] = {:.6g}{}\n", m.name.empty() ? "scenario" : m.name, o.file, m.pages(),
             kind_name(m.policy.kind), a.mean_access_time,
             a.cycle.empty() ? "" : fmt::format(", cycle of {} reads", a.cycle.size()));
  const int shown = std::min(m.pages(), 20);
  fmt::print("\n  {:>5} {:>10} {:>10} {:>10} {:>10} {:>10} {:>22}\n", "page", "mu_i", "c_i", "h_i", "f_i", "r_i",
             simulated ? "simulated r_i (95%)" : "");
  for (int i = 0; i < shown; ++i)
    fmt::print("  {:>5} {:>10.4g} {:>10.4g} {:>10.6f} {:>10.6f} {:>10.6f} {:>22}\n", i, m.change_rates[i], m.weights[i],
               a.h[i], a.frequencies[i], a.obsolescence_rates[i],
               simulated ? fmt::format("{:.6f} +- {:.2g}", simulated->obsolescence_rates[i].mean,
                                       simulated->obsolescence_rates[i].half_width)
                         : "");
  if (shown < m.pages()) fmt::print("  ... {} more pages (all of them in --json)\n", m.pages() - shown);
  fmt::print("\n  cost C = sum c_i r_i           {:.10g}\n", a.cost);
  if (simulated) fmt::print("  simulated cost (95%)           {:.6g} +- {:.2g}\n", simulated->cost.mean, simulated->cost.half_width);
  fmt::print("  lower bound over all policies  {:.10g}   (problem (7){}; C / bound = {:.6f})\n", a.lower_bound.cost,
             a.lower_bound.closed_form ? ", closed form (6)" : ", Lagrange condition (8)", a.cost_over_lower_bound);
  fmt::print("  best randomized policy         {:.10g}   ({}{})\n", a.randomized.cost,
             a.randomized.closed_form ? "frequencies (16)" : "frequencies (15)",
             a.randomized.validity_condition_holds ? "" : "; the condition after (16) fails: some pages are never read");
  if (m.weights_proportional_to_rates())
    fmt::print("  golden ratio, large N          C / bound -> H(mu E[X]) = {:.6f} <= 2 phi^2 / 5 = {:.6f} (Corollary 5.1)\n",
               a.golden_ratio_limit, analytic::two_phi_squared_over_five());
  if (simulated)
    fmt::print("\n  simulation: {} replications of {:.6g} time units, seed {}, {} reads in {:.3g} s\n", o.replications,
               plan.horizon, plan.seed, simulated->accesses, simulated->seconds);
}

int run(const RefreshOptions& o) {
  const scenarios::RefreshScenario s = scenarios::load_refresh_scenario(o.file);
  const model::RefreshModel& m = s.model;
  analytic::RefreshAnalysis a;
  try {
    a = analytic::analyze_refresh(m, available_bytes());
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("{}: refresh.policy.cycle: {}", o.file, e.what()));
  }
  std::optional<sim::RefreshSimulationResult> simulated;
  sim::RefreshSimulationPlan plan;
  if (o.simulate) simulated = run_simulation(m, a, o, plan);

  if (!o.json) {
    print_readable(s, a, simulated, o, plan);
    return 0;
  }
  nlohmann::json j{{"name", m.name},
                   {"policy", {{"kind", kind_name(m.policy.kind)}}},
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
    j["golden_ratio_limit"] = {{"q", a.change_per_read},
                               {"ratio", a.golden_ratio_limit},
                               {"two_phi_squared_over_five", analytic::two_phi_squared_over_five()}};
  if (simulated) {
    nlohmann::json rates = nlohmann::json::array();
    for (const auto& r : simulated->obsolescence_rates) rates.push_back(api::interval_json(r));
    j["simulated"] = {{"obsolescence_rates", rates},
                      {"cost", api::interval_json(simulated->cost)},
                      {"replications", plan.replications},
                      {"seed", plan.seed},
                      {"horizon", plan.horizon},
                      {"warmup", plan.warmup},
                      {"accesses", simulated->accesses},
                      {"seconds", simulated->seconds}};
  }
  std::cout << j.dump(2) << '\n';
  return 0;
}

}  // namespace

std::function<int()> add_refresh_command(CLI::App& app) {
  auto o = std::make_shared<RefreshOptions>();
  CLI::App* cmd = app.add_subcommand(
      "refresh",
      "Page refresh scheduling (Coffman, Liu, Weber 1998): one robot re-reads N pages that change as\n"
      "Poisson processes. For the file's policy (randomized, cyclic or golden-ratio): each page's exact\n"
      "obsolescence rate r_i, the cost sum c_i r_i, the lower bound over all policies (problem (7)) and\n"
      "the best randomized policy (problem (12)). --simulate adds an event-driven simulation with 95%\n"
      "intervals. The file format is in interface.md, section \"Page refresh scheduling\".\n"
      "Examples: crawlq refresh scenarios/data/refresh-paper-example.yaml\n"
      "          crawlq refresh scenarios/data/refresh-many-pages.yaml --simulate --json");
  cmd->add_option("FILE", o->file, "refresh scenario file (YAML or JSON)")->required();
  cmd->add_flag("--simulate", o->simulate, "also simulate the policy: r_i and the cost with 95% intervals");
  cmd->add_option("--seed", o->seed, "seed of the simulation")->capture_default_str();
  cmd->add_option("--replications", o->replications, "independent replications (>= 2)")->capture_default_str();
  cmd->add_option("--horizon", o->horizon, "observed time per replication (default: about 2000 reads of each page)");
  cmd->add_option("--threads", o->threads, "replications run at once (0: all cores); same numbers for any count")
      ->capture_default_str()
      ->check([](const std::string& text) {
        return text.empty() || text[0] != '-' ? std::string() : fmt::format("{}: must be >= 0 (0: all cores)", text);
      });
  cmd->add_flag("--json", o->json,
                "machine output: {\"frequencies\", \"obsolescence_rates\", \"cost\", \"lower_bound\", ...}");
  return [cmd, o] { return cmd->parsed() ? run(*o) : -1; };
}

}  // namespace crawlq::app
