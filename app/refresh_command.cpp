#include "app/refresh_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "analytic/refresh/refresh_analysis.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "api/refresh_request.hpp"
#include "app/command_support.hpp"
#include "app/simulation_flags.hpp"
#include "model/time_unit.hpp"
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

void print_readable(const scenarios::RefreshScenario& s, const analytic::RefreshAnalysis& a,
                    const std::optional<sim::RefreshSimulationResult>& simulated,
                    const RefreshOptions& o, const sim::RefreshSimulationPlan& plan) {
  const model::RefreshModel& m = s.model;
  fmt::print("{} ({}): {} pages, {} policy, E[X] = {:.6g}{}\n",
             m.name.empty() ? "scenario" : m.name, o.file, m.pages(),
             api::refresh_kind_name(m.policy.kind), a.mean_access_time,
             a.cycle.empty() ? "" : fmt::format(", cycle of {} reads", a.cycle.size()));
  fmt::print("  (mu_i: changes of page i, r_i: its obsolete reads, both {}; E[X] in {})\n",
             model::per_time_unit(m.time_unit), model::time_unit_plural(m.time_unit));
  const int shown = std::min(m.pages(), 20);
  fmt::print("\n  {:>5} {:>10} {:>10} {:>10} {:>10} {:>10} {:>22}\n", "page", "mu_i", "c_i", "h_i",
             "f_i", "r_i", simulated ? "simulated r_i (95%)" : "");
  for (int i = 0; i < shown; ++i)
    fmt::print("  {:>5} {:>10.4g} {:>10.4g} {:>10.6f} {:>10.6f} {:>10.6f} {:>22}\n", i,
               m.change_rates[i], m.weights[i], a.h[i], a.frequencies[i], a.obsolescence_rates[i],
               simulated ? fmt::format("{:.6f} +- {:.2g}", simulated->obsolescence_rates[i].mean,
                                       simulated->obsolescence_rates[i].half_width)
                         : "");
  if (shown < m.pages())
    fmt::print("  ... {} more pages (all of them in --json)\n", m.pages() - shown);
  fmt::print("\n  cost C = sum c_i r_i           {:.10g}\n", a.cost);
  if (simulated)
    fmt::print("  simulated cost (95%)           {:.6g} +- {:.2g}\n", simulated->cost.mean,
               simulated->cost.half_width);
  fmt::print("  lower bound over all policies  {:.10g}   (problem (7){}; C / bound = {:.6f})\n",
             a.lower_bound.cost,
             a.lower_bound.closed_form ? ", closed form (6)" : ", Lagrange condition (8)",
             a.cost_over_lower_bound);
  fmt::print("  best randomized policy         {:.10g}   ({}{})\n", a.randomized.cost,
             a.randomized.closed_form ? "frequencies (16)" : "frequencies (15)",
             a.randomized.validity_condition_holds
                 ? ""
                 : "; the condition after (16) fails: some pages are never read");
  if (m.weights_proportional_to_rates())
    fmt::print(
        "  golden ratio, large N          C / bound -> H(mu E[X]) = {:.6f} <= 2 phi^2 / 5 = {:.6f} (Corollary 5.1)\n",
        a.golden_ratio_limit, analytic::two_phi_squared_over_five());
  if (simulated)
    fmt::print("\n  simulation: {} replications of {}, seed {}, {} reads in {:.3g} s\n",
               o.replications, model::duration_text(plan.horizon, m.time_unit), plan.seed,
               simulated->accesses, simulated->seconds);
}

int run(const RefreshOptions& o) {
  const scenarios::RefreshScenario s = scenarios::load_refresh_scenario(o.file);
  const api::RefreshRequest request{.source = o.file,
                                    .model = s.model,
                                    .simulate = o.simulate,
                                    .seed = parse_seed(o.seed),
                                    .replications = o.replications,
                                    .horizon = o.horizon,
                                    .threads = o.threads};
  const api::RefreshResult result = api::refresh(request);
  if (!o.json) {
    print_readable(s, result.analysis, result.simulated, o, result.plan);
    return 0;
  }
  std::cout << api::to_json(request, result).dump(2) << '\n';
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
      "Examples: crawlq refresh refresh-paper-example\n"
      "          crawlq refresh refresh-many-pages --simulate --json");
  add_scenario_argument(cmd, o->file);
  cmd->add_flag("--simulate", o->simulate,
                "also simulate the policy: r_i and the cost with 95% intervals");
  cmd->add_option("--seed", o->seed, "seed of the simulation")->capture_default_str();
  cmd->add_option("--replications", o->replications, "independent replications (>= 2)")
      ->capture_default_str();
  cmd->add_option("--horizon", o->horizon,
                  "observed time per replication (default: about 2000 reads of each page)");
  add_threads_option(cmd, o->threads,
                     "replications run at once (0: all cores); same numbers for any count");
  cmd->add_flag(
      "--json", o->json,
      "machine output: {\"frequencies\", \"obsolescence_rates\", \"cost\", \"lower_bound\", ...}");
  return [cmd, o] { return cmd->parsed() ? run(*o) : -1; };
}

}  // namespace crawlq::app
