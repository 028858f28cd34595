#include "app/optimize_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>

#include "analytic/control/policy_search.hpp"
#include "analytic/control/table_summary.hpp"
#include "analytic/stationary/clock_lumping.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "analytic/stationary/solver_registry.hpp"
#include "api/json_output.hpp"
#include "api/optimize_request.hpp"
#include "app/command_support.hpp"
#include "app/progress_line.hpp"
#include "app/request_flag.hpp"
#include "app/simulation_flags.hpp"
#include "model/number_text.hpp"
#include "model/time_unit.hpp"

namespace crawlq::app {

namespace {

struct OptimizeOptions {
  std::string file;
  std::string policy_class = "thresholds";
  std::string search = "auto";
  std::string method = "auto";
  std::int64_t max_maps = 1'000'000;
  int threads = 0;
  int starts = 1;
  std::string export_policy;
  std::string ensemble;  // a set of models each searched too (api/ensemble.hpp)
  bool json = false;
  bool full_chain = false;
  std::string request;  // --request FILE: the fields as a document
};

std::string thresholds_text(const std::vector<int>& t) {
  return t.empty() ? "-" : fmt::format("{}", fmt::join(t, ","));
}

// What the local search leaves out, in both outputs.
constexpr const char* kLocalLeavesOut =
    "the best policy per set of modes used (Table 1's rows; --search exhaustive gives them), and a "
    "proof that the best is global: it is a local minimum, no neighbour costs less";

// `why` says how auto chose the search, or is empty.
void print_exhaustive(const OptimizeOptions& o, const model::Model& model,
                      const analytic::ThresholdSearch& search, double seconds,
                      const std::string& why) {
  fmt::print(
      "{} ({}): K = {}, {}; exhaustive search{}: all {} threshold policies solved in "
      "{:.3g} s\n\n",
      model.name.empty() ? "scenario" : model.name, o.file, model.capacity,
      model::counted(model.modes(), "mode"), why, search.policies_solved, seconds);
  fmt::print("  {:<22} {:<12} {:<22} {:>12}\n", "robots (modes used)", "thresholds",
             "robots per level", "best cost");
  for (const auto& set : search.by_modes)
    fmt::print("  {:<22} {:<12} {:<22} {:>12.6g}{}\n",
               fmt::format("{}", fmt::join(set.modes, " or ")), thresholds_text(set.thresholds),
               fmt::format("{}", levels_text(set.best.policy.levels())), set.best.cost,
               set.best.policy == search.best.policy ? "   <- best" : "");
  fmt::print("\nbest: robots per level {} (thresholds {}), cost {:.6g}\n",
             levels_text(search.best.policy.levels()),
             thresholds_text(*search.best.policy.thresholds()), search.best.cost);
  fmt::print("relative profit over the best constant number of robots: R = {:.2f}%\n",
             model::relative_profit(search.best.cost, search.constant));
}

void print_local(const OptimizeOptions& o, const model::Model& model,
                 const analytic::LocalThresholdSearch& search, double seconds,
                 const std::string& why) {
  const std::int64_t count = analytic::threshold_policy_count(model.modes(), model.capacity);
  fmt::print(
      "{} ({}): K = {}, {}; local search{}: {} of the {} threshold policies solved "
      "in {:.3g} s\n\n",
      model.name.empty() ? "scenario" : model.name, o.file, model.capacity,
      model::counted(model.modes(), "mode"), why, search.policies_solved, count, seconds);
  fmt::print("  {:<22} {:<12} {:<22} {:>12}\n", "robots (constant)", "thresholds",
             "robots per level", "cost");
  for (int r = model.modes(); r >= 1; --r) {
    const model::Policy constant = model::Policy::constant(r, model.modes(), model.capacity);
    fmt::print("  {:<22} {:<12} {:<22} {:>12.6g}\n", r, thresholds_text(*constant.thresholds()),
               fmt::format("{}", levels_text(constant.levels())), search.constant[r - 1]);
  }
  fmt::print("\nstart (best of the grid {{-1, {}, {}}}): thresholds {}, cost {:.6g}\n",
             model.capacity / 2, model.capacity, thresholds_text(*search.start.policy.thresholds()),
             search.start.cost);
  fmt::print(
      "best after {} descent{}, {} moves: robots per level {} (thresholds {}), cost {:.6g}\n",
      search.descents, search.descents == 1 ? "" : "s", search.moves,
      levels_text(search.best.policy.levels()), thresholds_text(*search.best.policy.thresholds()),
      search.best.cost);
  fmt::print("relative profit over the best constant number of robots: R = {:.2f}%\n",
             model::relative_profit(search.best.cost, search.constant));
  fmt::print("not reported by the local search: {}\n", kLocalLeavesOut);
}

void print_periodic(const OptimizeOptions& o, const model::Model& model,
                    const analytic::PeriodicThresholdSearch& search, double seconds) {
  const model::Rhythm& rhythm = *model.rhythm;
  const std::string unit = model::time_unit_plural(model.time_unit);
  fmt::print(
      "{} ({}): K = {}, {}; arrivals follow a rhythm of {} pieces over {} {}: {} periodic regimes "
      "solved in {:.3g} s\n\n",
      model.name.empty() ? "scenario" : model.name, o.file, model.capacity,
      model::counted(model.modes(), "mode"), rhythm.pieces(), rhythm.period, unit,
      search.policies_solved, seconds);
  fmt::print("one vector for the whole period ({}): thresholds {}, cost {:.6g} over the period\n",
             search.single_enumerated ? "every vector tried"
                                      : fmt::format("a descent from the mean arrivals' best, {}",
                                                    thresholds_text(search.start)),
             thresholds_text(search.single), search.single_cost);
  fmt::print(
      "a vector per piece (a coordinate search from it, {} passes, {} moves; a local optimum):\n\n",
      search.sweeps, search.moves);
  fmt::print("  {:>9}  {:>6}  {:<12}\n", "start", "scale", "thresholds");
  for (std::size_t i = 0; i < search.by_piece.size(); ++i)
    fmt::print("  {:>9.4g}  {:>6.3g}  {:<12}\n", rhythm.piece_start(i), rhythm.scales[i],
               thresholds_text(search.by_piece[i]));
  fmt::print(
      "\ncost with a vector per piece {:.6g}, with one vector {:.6g}: following the clock saves "
      "{:.4g} ({:.2f}%)\n",
      search.by_piece_cost, search.single_cost, search.single_cost - search.by_piece_cost,
      search.single_cost > 0
          ? 100 * (search.single_cost - search.by_piece_cost) / search.single_cost
          : 0.0);
}

void print_levels(const OptimizeOptions& o, const model::Model& model,
                  const analytic::LevelSearch& search, double seconds) {
  const bool threshold_is_best =
      search.best_threshold && search.best_threshold->cost <= search.best.cost;
  fmt::print("{} ({}): K = {}, {}; all {} level maps solved in {:.3g} s\n\n",
             model.name.empty() ? "scenario" : model.name, o.file, model.capacity,
             model::counted(model.modes(), "mode"), search.policies_solved, seconds);
  fmt::print("best level map:       robots per level {}, cost {:.8g}\n",
             levels_text(search.best.policy.levels()), search.best.cost);
  fmt::print("best threshold map:   robots per level {}, cost {:.8g}\n",
             levels_text(search.best_threshold->policy.levels()), search.best_threshold->cost);
  if (threshold_is_best)
    fmt::print("the best threshold policy is also the best level-based policy\n");
  else
    fmt::print("a level map outside the threshold class does better, by {:.6g}\n",
               search.best_threshold->cost - search.best.cost);
}

void print_markov(const OptimizeOptions& o, const model::Model& model,
                  const analytic::MarkovSearch& search, double seconds) {
  const analytic::PolicyEvaluation& best = *search.best;
  const auto& table = std::get<model::TablePolicy>(best.policy);
  fmt::print(
      "{} ({}): K = {}, {}; every policy that sees the whole state ({} states), {:.3g} s\n\n",
      model.name.empty() ? "scenario" : model.name, o.file, model.capacity,
      model::counted(model.modes(), "mode"), table.robots.size(), seconds);
  const auto& t = search.threshold_best;
  fmt::print(
      "  best threshold policy ({} search):  robots per level {} (thresholds {}), cost {:.8g}\n",
      search.threshold_search, levels_text(t.policy.levels()),
      thresholds_text(t.policy.thresholds().value_or(std::vector<int>{})), t.cost);
  // Every gap is quoted as a share of the cheaper cost, as --class all and the lab quote it.
  fmt::print(
      "  best full-state policy:  cost {:.8g}; the threshold optimum costs {:.2f}% more than it\n",
      best.measures.cost,
      best.measures.cost != 0
          ? 100 * analytic::excess(t.cost, best.measures.cost) / best.measures.cost
          : 0.0);
  if (search.global) {
    fmt::print(
        "  optimality: global. Policy iteration ended after {} evaluations; no policy, whatever it sees\n"
        "  or remembers, costs less than {:.10g}\n",
        search.improvement_steps, search.lower_bound);
  } else {
    fmt::print(
        "  optimality: heuristic. The cost's sojourn term (its weight times V(1), the served pages'\n"
        "  mean sojourn) is an average per page, not a rate per unit time, so policy iteration cannot\n"
        "  take it as it is: the candidates came from a cost per page in the system standing in for it\n"
        "  ({} weights tried, the best {:.4g}), and each was then evaluated exactly. No policy costs\n"
        "  less than {:.8g} (the other terms' optimum plus the sojourn weight times the mean service\n"
        "  time, the least V(1) can be), so the answer is at most {:.3g}% above the optimum.\n",
        search.tried.size(), search.stand_in_holding, search.lower_bound,
        100 * (best.measures.cost - search.lower_bound) / best.measures.cost);
  }
  const analytic::TableSummary summary = analytic::summarize_table(
      analytic::StateSpace(model), table.robots, model.modes(), &best.stationary.probabilities);
  fmt::print(
      "\n  robots by level and arrival phase (the share of the probability that runs them):\n");
  fmt::print("  {:>5}  {}\n", "level", "phase 0, 1, ...");
  constexpr int kLevelsShown = 40;
  for (int level = 0; level <= std::min(model.capacity, kLevelsShown); ++level) {
    std::string row;
    for (std::size_t nu = 0; nu < summary.robots[level].size(); ++nu)
      row += fmt::format("{}{} ({:.0f}%)", nu ? ", " : "", summary.robots[level][nu],
                         100 * summary.share[level][nu]);
    fmt::print("  {:>5}  {}\n", level, row);
  }
  if (!o.export_policy.empty())
    fmt::print(
        "\npolicy table written to {} (give it as --policy {}, or `policy: {{table: {}}}` in a scenario)\n",
        o.export_policy, o.export_policy, o.export_policy);
}

void print_table_class(const OptimizeOptions& o, const model::Model& model,
                       const analytic::TableClassSearch& search, double seconds) {
  const analytic::PolicyEvaluation& best = *search.best;
  fmt::print(
      "{} ({}): K = {}, {}; --class {}: {} of the {} tables solved in {:.3g} s ({})\n\n",
      model.name.empty() ? "scenario" : model.name, o.file, model.capacity,
      model::counted(model.modes(), "mode"), o.policy_class, search.policies_solved, search.tables,
      seconds,
      search.exhaustive
          ? "every one: the class's optimum"
          : fmt::format("a descent from the best threshold policy, {} moves: a local minimum",
                        search.moves));
  const bool memory = std::holds_alternative<model::MemoryPolicy>(best.policy);
  fmt::print("  {:>5}  {}\n", "level",
             memory ? "next robots when reached with 1, 2, ... in force"
                    : "robots in arrival phase 0, 1, ...");
  std::visit(model::Overloaded{[&](const model::PhaseAwarePolicy& p) {
                                 for (std::size_t i = 0; i < p.robots.size(); ++i)
                                   fmt::print("  {:>5}  {}\n", i, fmt::join(p.robots[i], " "));
                               },
                               [&](const model::MemoryPolicy& p) {
                                 for (std::size_t i = 0; i < p.next.size(); ++i)
                                   fmt::print("  {:>5}  {}\n", i, fmt::join(p.next[i], " "));
                               },
                               [&](const auto&) {}},
             best.policy);
  fmt::print("\nbest cost {:.8g}\n", best.measures.cost);
}

void print_comparison(const OptimizeOptions& o, const model::Model& model,
                      const api::OptimizeResult& result) {
  const auto& comparison = std::get<analytic::ClassComparison>(result.search);
  const double optimum = comparison.optimum();
  fmt::print("{} ({}): K = {}, {}; what each class of policies can do, {:.3g} s\n\n",
             model.name.empty() ? "scenario" : model.name, o.file, model.capacity,
             model::counted(model.modes(), "mode"), result.seconds);
  fmt::print("  {:<12} {:>14} {:>12} {:>9}  {}\n", "class", "best cost", "excess", "excess %",
             "optimality");
  for (const auto& row : comparison.rows)
    fmt::print("  {:<12} {:>14.8g} {:>12.6g} {:>8.2f}%  {}\n", row.name, row.cost,
               analytic::excess(row.cost, optimum),
               optimum != 0 ? 100 * analytic::excess(row.cost, optimum) / optimum : 0.0,
               row.optimality);
  fmt::print(
      "\n  excess: what the class's restriction costs over the best of all ({:.8g}); excess %: the "
      "excess\n  as a share of that best cost.\n",
      optimum);
  fmt::print(
      "  constant: one number of robots; thresholds: the paper's class; levels: robots by level;\n"
      "  memory: by level and the robots in force; phase-aware: by level and arrival phase;\n"
      "  markov: by the whole state ({};\n  no policy costs less than {:.8g}).\n",
      comparison.markov->global ? "the global optimum"
                                : "a heuristic's best: the sojourn term is a ratio",
      comparison.markov->lower_bound);
}

// How the decision stands over the ensemble: the best cost's spread, how often each policy is the
// best, and what keeping this model's best costs on the others.
void print_decision_spread(const nlohmann::json& e, const std::string& spec) {
  const int members = e["members"].get<int>();
  const auto& best = e["best_cost"];
  const auto& kept = e["point_policy_cost"];
  fmt::print("\nover the ensemble ({} models, {}):\n", members, spec);
  fmt::print("  {:<44} {:>12} {:>12} {:>12} {:>12}\n", "cost (2)", "this model", "mean", "5%",
             "95%");
  fmt::print("  {:<44} {:>12.6g} {:>12.6g} {:>12.6g} {:>12.6g}\n", "each model's own best",
             best["point"].get<double>(), best["mean"].get<double>(), best["low"].get<double>(),
             best["high"].get<double>());
  fmt::print("  {:<44} {:>12.6g} {:>12.6g} {:>12.6g} {:>12.6g}\n",
             "this model's best policy on each", kept["point"].get<double>(),
             kept["mean"].get<double>(), kept["low"].get<double>(), kept["high"].get<double>());
  fmt::print("  the best policy, model by model (share of the {} models):\n", members);
  const std::size_t kShown = 8;
  const auto& decisions = e["decisions"];
  for (std::size_t i = 0; i < std::min(decisions.size(), kShown); ++i)
    fmt::print("    {:>6.1f}%  {}{}\n", 100 * decisions[i]["share"].get<double>(),
               decisions[i]["policy"].dump(),
               decisions[i]["point"].get<bool>() ? "   <- this model's best" : "");
  if (decisions.size() > kShown)
    fmt::print("    ... {} more policies (every one in --json)\n", decisions.size() - kShown);
  const auto& regret = e["regret"];
  fmt::print(
      "  stability: this model's best is the best on {:.1f}% of the models; keeping it costs "
      "{:.4g} more on average ({:.3g}%), {:.4g} at most\n",
      100 * e["stability"].get<double>(), regret["mean"].get<double>(),
      100 * regret["relative_mean"].get<double>(), regret["max"].get<double>());
}

api::OptimizeRequest flags_request(const OptimizeOptions& o) {
  const api::PolicyClass policy_class = api::parse_policy_class(o.policy_class);
  const analytic::Search search = flag_choice("--search", o.search, analytic::parse_search);
  return {.source = o.file,
          .model = load(o.file).model,
          .policy_class = policy_class,
          .search = search,
          .method = method_option(o.method),
          .max_maps = o.max_maps,
          .threads = o.threads,
          .starts = o.starts,
          .export_policy = o.export_policy,
          .full_chain = o.full_chain,
          .progress = nullptr,
          .ensemble = o.ensemble};
}

api::OptimizeRequest document_request(const OptimizeOptions& o, const CLI::App& command) {
  const model::Model model = load(o.file).model;
  const nlohmann::json document =
      read_request_document(o.request, command, api::RequestKind::kOptimize);
  return from_document(o.request, [&] {
    return api::optimize_request(document, document_scenario(o.file, model),
                                 api::Caller::kDocument);
  });
}

int run(const OptimizeOptions& flags, const CLI::App& command) {
  api::OptimizeRequest request =
      flags.request.empty() ? flags_request(flags) : document_request(flags, command);
  // The searches report each stage; the line shows it with the time so far.
  ProgressLine progress("optimize " + flags.file, ProgressLine::wanted());
  progress.stage(fmt::format("the best {} policy", api::policy_class_name(request.policy_class)));
  request.progress = [&progress](const std::string& stage) { progress.stage(stage); };
  // What the tables print: the request's, whether flags or a document gave it.
  OptimizeOptions o = flags;
  o.policy_class = api::policy_class_name(request.policy_class);
  o.export_policy = request.export_policy;
  const analytic::Search requested = request.search;
  const model::Model& model = request.model;
  try {
    const api::OptimizeResult result = api::optimize(request);
    progress.finish();
    if (o.json) {
      std::cout << api::to_json(request, result).dump(2) << '\n';
      return 0;
    }
    // The chains solved, which the search's size is told by.
    const model::Model searched = api::answering_model(request);
    const std::string why =
        requested != analytic::Search::kAuto
            ? ""
            : fmt::format(
                  " (auto: {} policies x ({} states + {}) = {:.3g} {} {:.3g})",
                  analytic::threshold_policy_count(model.modes(), model.capacity),
                  analytic::estimate_memory(searched).states, analytic::kPolicyOverheadStates,
                  analytic::threshold_search_work(searched),
                  analytic::choose_search(requested, searched) == analytic::Search::kLocal ? ">"
                                                                                           : "<=",
                  analytic::kExhaustiveWork);
    std::visit(
        model::Overloaded{
            [&](const analytic::ThresholdSearch& s) {
              print_exhaustive(o, model, s, result.seconds, why);
            },
            [&](const analytic::LocalThresholdSearch& s) {
              print_local(o, model, s, result.seconds, why);
            },
            [&](const analytic::LevelSearch& s) { print_levels(o, model, s, result.seconds); },
            [&](const analytic::MarkovSearch& s) { print_markov(o, model, s, result.seconds); },
            [&](const analytic::TableClassSearch& s) {
              print_table_class(o, model, s, result.seconds);
            },
            [&](const analytic::ClassComparison&) { print_comparison(o, model, result); },
            [&](const analytic::PeriodicThresholdSearch& s) {
              print_periodic(o, model, s, result.seconds);
            }},
        result.search);
    if (result.ensemble) print_decision_spread(*result.ensemble, request.ensemble);
    if (const std::optional<double> rate = analytic::lumped_clock_rate(searched, model))
      fmt::print(
          "\nthe clock's phases lumped: every phase exits at rate {:.6g} {}, so each chain solved "
          "has {:.0f} states in place of {} (--full-chain keeps them)\n",
          *rate, model::per_time_unit(model.time_unit), analytic::estimate_memory(searched).states,
          api::chain_states_text(model, analytic::estimate_memory(model).states));
    return 0;
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const model::InputError*>(&e)) throw;
    fmt::print(stderr, "{}: {}\n", o.file, e.what());
    return static_cast<int>(ExitCode::kFailed);
  }
}

}  // namespace

std::function<int()> add_optimize_command(CLI::App& app) {
  auto o = std::make_shared<OptimizeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "optimize",
      "The policy of least cost (2) by the exact engine.\n"
      "  --class thresholds: threshold vectors (the paper's class), by --search:\n"
      "    exhaustive: every non-decreasing threshold vector, C(K+N, N-1) policies: the best,\n"
      "                the best per set of modes used (the layout of the paper's Table 1)\n"
      "                and each constant number of robots;\n"
      "    local:      steepest descent from the best of the grid {-1, K/2, K}^(N-1) (every\n"
      "                constant policy among them), moving one threshold one level at a\n"
      "                time (pushing equal ones along) until no move costs less (beyond\n"
      "                K = 32, then also longer moves and jumps to levels 0, 1, 3, 7, ...:\n"
      "                in a long buffer the seldom visited levels form a plateau):\n"
      "                a local minimum, not proven global, and no best per set of modes;\n"
      "                for N and K where enumeration takes too long; --starts S descends\n"
      "                from the S cheapest grid vectors in turn (0: all);\n"
      "    auto:       exhaustive while policies x (states + 1000) <= 1e7 (10-20 s on one\n"
      "                core; up to K = 12 on the paper's first example), local beyond.\n"
      "    Both report how many policies were solved.\n"
      "  --class levels:     every robots-per-level map, telling whether the best threshold\n"
      "                      policy is also the best level-based one (exhaustive only).\n"
      "  --class markov:     every policy that sees the whole state (level, arrival, service and\n"
      "                      clock phases), as a Markov decision process solved by policy\n"
      "                      iteration. Sojourn weight 0: the global optimum over every policy,\n"
      "                      certified by a lower bound. Otherwise the sojourn term is a ratio no\n"
      "                      MDP carries: the best of candidates from a stand-in holding cost,\n"
      "                      each evaluated exactly, and a lower bound on what any policy costs.\n"
      "                      --export-policy FILE writes its table (CSV, one line per state).\n"
      "  --class phase-aware: robots by level and arrival phase; --class memory: the next robots\n"
      "                      by level and the robots in force (hysteresis is one such policy).\n"
      "                      Every table while there are at most 4096, else a descent from the\n"
      "                      best threshold policy changing one entry at a time.\n"
      "  --class all:        one table: constant, thresholds, levels, memory, phase-aware and the\n"
      "                      full-state optimum, each with its excess over the optimum: what\n"
      "                      each restriction on what the controller sees or remembers costs.\n"
      "A scenario whose arrivals follow a rhythm (`rhythm:`) is judged by the periodic regime's\n"
      "cost over the period: the best threshold vector for the whole period, then a vector per\n"
      "piece by a coordinate search from it (what following the clock saves); --export-policy\n"
      "writes the per-piece vectors as a `policy: {by_piece: [...]}` section.\n"
      "Example: crawlq optimize paper-example-1");
  add_scenario_argument(cmd, o->file);
  std::string classes;
  for (const auto c : api::policy_classes())
    classes += (classes.empty() ? "" : " | ") + std::string(api::policy_class_name(c));
  cmd->add_option("--class", o->policy_class, classes)->capture_default_str();
  cmd->add_option(
      "--export-policy", o->export_policy,
      "write the best policy to FILE, for solve/simulate/validate --policy FILE: YAML with a `policy:` "
      "section, or for --class markov its table as CSV (a scenario reads it as `policy: {table: FILE}`)");
  cmd->add_option("--search", o->search, "exhaustive | local | auto (thresholds class; see above)")
      ->capture_default_str();
  cmd->add_option("--method", o->method, "stationary solver: " + analytic::method_help())
      ->capture_default_str();
  cmd->add_option("--max-maps", o->max_maps,
                  "--class levels refuses to enumerate more maps than this")
      ->capture_default_str();
  cmd->add_option("--starts", o->starts,
                  "--search local: descents from this many grid vectors (0: all)")
      ->capture_default_str();
  add_threads_option(
      cmd, o->threads,
      "policies solved at once, and with --class markov inside each policy iteration's "
      "solve (0: all cores); same answer for any count");
  cmd->add_option("--ensemble", o->ensemble,
                  "DIR or FILE,FILE,...: search each of a set of models as well (the refits fit "
                  "arrivals --bootstrap B --out DIR writes in DIR/bootstrap): the best cost's "
                  "spread, how often each policy is the best, and the regret of keeping this "
                  "model's best");
  cmd->add_flag("--full-chain", o->full_chain,
                "keep every phase of the obsolescence clock in each chain solved even where each "
                "exits at one rate and the chain lumps without them (same costs on far fewer "
                "states; solve --help says more); the markov classes keep them anyway");
  add_request_option(cmd, o->request, api::RequestKind::kOptimize);
  cmd->add_flag("--json", o->json, "machine output on stdout (keys of interface.md)");
  return [cmd, o] { return cmd->parsed() ? run(*o, *cmd) : -1; };
}

}  // namespace crawlq::app
