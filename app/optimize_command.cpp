#include "app/optimize_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "analytic/policy_search.hpp"
#include "app/command_support.hpp"
#include "app/json_output.hpp"

namespace crawlq::app {

namespace {

struct OptimizeOptions {
  std::string file;
  std::string policy_class = "thresholds";
  std::string method = "auto";
  std::int64_t max_maps = 1'000'000;
  int threads = 0;
  bool json = false;
};

nlohmann::json best_json(const analytic::PolicyCost& best) {
  nlohmann::json j = policy_json(best.policy);
  j["cost"] = best.cost;
  return j;
}

std::string thresholds_text(const std::vector<int>& t) {
  return t.empty() ? "-" : fmt::format("{}", fmt::join(t, ","));
}

int run_thresholds(const OptimizeOptions& o, const model::Model& model,
                   const analytic::PolicyEvaluator& evaluator) {
  const auto start = std::chrono::steady_clock::now();
  const analytic::ThresholdSearch search = analytic::optimize_thresholds(evaluator, o.threads);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (o.json) {
    nlohmann::json j{{"best", best_json(search.best)},
                     {"constant", search.constant},
                     {"by_modes", nlohmann::json::array()},
                     {"policies_solved", search.policies_solved},
                     {"seconds", seconds}};
    for (const auto& set : search.by_modes)
      j["by_modes"].push_back({{"modes", set.modes},
                               {"thresholds", set.thresholds},
                               {"levels", set.best.policy.levels()},
                               {"cost", set.best.cost}});
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  fmt::print("{} ({}): K = {}, {} modes; {} threshold policies solved in {:.3g} s\n\n",
             model.name.empty() ? "scenario" : model.name, o.file, model.capacity, model.modes(),
             search.policies_solved, seconds);
  fmt::print("  {:<22} {:<12} {:<22} {:>12}\n", "robots (modes used)", "thresholds", "robots per level",
             "best cost");
  for (const auto& set : search.by_modes)
    fmt::print("  {:<22} {:<12} {:<22} {:>12.6g}{}\n", fmt::format("{}", fmt::join(set.modes, " or ")),
               thresholds_text(set.thresholds), fmt::format("{}", fmt::join(set.best.policy.levels(), " ")),
               set.best.cost, set.best.policy == search.best.policy ? "   <- best" : "");
  double best_constant = search.constant[0];
  for (double c : search.constant) best_constant = std::min(best_constant, c);
  fmt::print("\nbest: robots per level {} (thresholds {}), cost {:.6g}\n",
             fmt::join(search.best.policy.levels(), " "), thresholds_text(*search.best.policy.thresholds()),
             search.best.cost);
  fmt::print("relative profit over the best constant number of robots: R = {:.2f}%\n",
             100.0 * (1.0 - search.best.cost / best_constant));
  return 0;
}

int run_levels(const OptimizeOptions& o, const model::Model& model,
               const analytic::PolicyEvaluator& evaluator) {
  const auto start = std::chrono::steady_clock::now();
  const analytic::LevelSearch search = [&] {
    try {
      return analytic::optimize_levels(evaluator, o.max_maps, o.threads);
    } catch (const std::invalid_argument& e) {
      throw UsageError(fmt::format("{}: {}", o.file, e.what()));
    }
  }();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const bool threshold_is_best = search.best_threshold && search.best_threshold->cost <= search.best.cost;
  if (o.json) {
    nlohmann::json j{{"best", best_json(search.best)},
                     {"threshold_is_best", threshold_is_best},
                     {"policies_solved", search.policies_solved},
                     {"seconds", seconds}};
    if (search.best_threshold) j["best_threshold"] = best_json(*search.best_threshold);
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  fmt::print("{} ({}): K = {}, {} modes; all {} level maps solved in {:.3g} s\n\n",
             model.name.empty() ? "scenario" : model.name, o.file, model.capacity, model.modes(),
             search.policies_solved, seconds);
  fmt::print("best level map:       robots per level {}, cost {:.8g}\n",
             fmt::join(search.best.policy.levels(), " "), search.best.cost);
  fmt::print("best threshold map:   robots per level {}, cost {:.8g}\n",
             fmt::join(search.best_threshold->policy.levels(), " "), search.best_threshold->cost);
  if (threshold_is_best)
    fmt::print("the best threshold policy is also the best level-based policy\n");
  else
    fmt::print("a level map outside the threshold class does better, by {:.6g}\n",
               search.best_threshold->cost - search.best.cost);
  return 0;
}

int run(const OptimizeOptions& o) {
  const scenarios::Scenario scenario = load(o.file);
  const analytic::Method method = method_option(o.method);
  require_exact_engine_fits(scenario.model, o.file, method);
  const analytic::PolicyEvaluator evaluator(scenario.model, method);
  try {
    if (o.policy_class == "thresholds") return run_thresholds(o, scenario.model, evaluator);
    if (o.policy_class == "levels") return run_levels(o, scenario.model, evaluator);
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const UsageError*>(&e)) throw;
    fmt::print(stderr, "{}: {}\n", o.file, e.what());
    return static_cast<int>(ExitCode::kFailed);
  }
  throw UsageError(fmt::format("--class: unknown class '{}' (known: thresholds, levels)", o.policy_class));
}

}  // namespace

std::function<int()> add_optimize_command(CLI::App& app) {
  auto o = std::make_shared<OptimizeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "optimize",
      "The policy of least cost (2) by the exact engine.\n"
      "  --class thresholds: every non-decreasing threshold vector, the best per set of modes used\n"
      "                      (the layout of the paper's Table 1) and each constant number of robots;\n"
      "  --class levels:     every robots-per-level map, telling whether the best threshold policy\n"
      "                      is also the best level-based one.\n"
      "Example: crawlq optimize scenarios/data/paper-example-1.yaml");
  cmd->add_option("FILE", o->file, "scenario file (YAML or JSON, see interface.md)")->required();
  cmd->add_option("--class", o->policy_class, "thresholds | levels")->capture_default_str();
  cmd->add_option("--method", o->method, "stationary solver: auto | block-recursion | qbd | sparse-lu | iterative")
      ->capture_default_str();
  cmd->add_option("--max-maps", o->max_maps, "--class levels refuses to enumerate more maps than this")
      ->capture_default_str();
  cmd->add_option("--threads", o->threads, "policies solved at once (0: all cores); same answer for any count")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--json", o->json, "machine output on stdout (keys of interface.md)");
  return [cmd, o] { return cmd->parsed() ? run(*o) : -1; };
}

}  // namespace crawlq::app
