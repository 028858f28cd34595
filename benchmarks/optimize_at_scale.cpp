// Threshold optimisation of the paper's first example (N = 4) at capacities where each policy is a
// large chain: the exhaustive search (C(K+4, 3) policies: 560 at K = 12) and the local search, with
// without and with warm starts. Prints wall time, policies solved, the stationary solver's
// iterations summed over the solves, and the optimum. Usage: optimize_at_scale [--threads P]
// [--method NAME] [TASK ...]
//   TASK is SEARCH:K with SEARCH one of exhaustive, exhaustive-warm, local, local-warm (-warm: each
//   solve starts from a neighbouring policy's vector, ThresholdSearchOptions::warm_start);
//   default: exhaustive:12 local:12 local:14 local:16.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "analytic/control/policy_search.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "benchmark_support.hpp"
#include "scenarios/scenario_loader.hpp"

namespace {

struct Task {
  std::string search;
  int capacity;
};

// Why "SEARCH:K" is not a task; empty when it is one.
std::string task_error(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) return fmt::format("'{}': give SEARCH:K, e.g. local:14", text);
  const std::string search = text.substr(0, colon);
  if (search != "exhaustive" && search != "exhaustive-warm" && search != "local" &&
      search != "local-warm")
    return fmt::format("'{}': SEARCH is exhaustive, exhaustive-warm, local or local-warm", search);
  const std::string k = text.substr(colon + 1);
  if (k.empty() || k.find_first_not_of("0123456789") != std::string::npos || k.size() > 2 ||
      std::stoi(k) < 2)
    return fmt::format("'{}': K is a capacity from 2 to 99", k);
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace crawlq;
  CLI::App app(
      "Threshold search on the paper's first example at capacity K: wall time, policies solved,\n"
      "solver iterations and the optimum, for each SEARCH:K given (default: exhaustive:12 local:12\n"
      "local:14 local:16). SEARCH: exhaustive | exhaustive-warm | local | local-warm.",
      "optimize_at_scale");
  int threads = 0;
  std::string method_name = "auto";
  std::vector<std::string> task_texts;
  app.add_option("--threads", threads, "policies solved at once (0: all cores)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--method", method_name,
                 "stationary solver: auto | block-recursion | qbd | sparse-lu | iterative");
  app.add_option("SEARCH:K", task_texts, "searches to time, e.g. local:14")->check(task_error);
  return benchmarks::run_benchmark(app, argc, argv, [&] {
    const analytic::Method method = analytic::parse_method(method_name);
    std::vector<Task> tasks;
    for (const std::string& text : task_texts) {
      const auto colon = text.find(':');
      tasks.push_back({text.substr(0, colon), std::stoi(text.substr(colon + 1))});
    }
    if (tasks.empty()) tasks = {{"exhaustive", 12}, {"local", 12}, {"local", 14}, {"local", 16}};

    const auto scenario =
        scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml");
    fmt::print("paper-example-1, method {}, threads {}\n", analytic::method_name(method),
               threads == 0 ? std::string("all") : std::to_string(threads));
    for (const Task& task : tasks) {
      model::Model m = scenario.model;
      m.capacity = task.capacity;
      const bool warm = task.search.ends_with("-warm");
      const std::string search = warm ? task.search.substr(0, task.search.size() - 5) : task.search;
      const auto start = std::chrono::steady_clock::now();
      const analytic::PolicyEvaluator evaluator(m, method);
      const analytic::ThresholdSearchOptions options{.threads = threads, .warm_start = warm};
      analytic::PolicyCost best{model::Policy::constant(1, m.modes(), m.capacity), 0.0};
      std::int64_t solved = 0, iterations = 0;
      if (search == "exhaustive") {
        const auto result = analytic::optimize_thresholds(evaluator, options);
        best = result.best, solved = result.policies_solved, iterations = result.solver_iterations;
      } else {
        const auto result = analytic::optimize_thresholds_locally(evaluator, options);
        best = result.best, solved = result.policies_solved, iterations = result.solver_iterations;
      }
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      fmt::print(
          "K = {:>2} ({:>7} states) {:<10} {:<4}: {:>8.2f} s, {:>4} of {:>4} policies solved, "
          "{:>7} solver iterations ({:.1f} per policy), best thresholds [{}] cost {:.10g}\n",
          m.capacity, analytic::estimate_memory(m, method).states, search, warm ? "warm" : "cold",
          seconds, solved, analytic::threshold_policy_count(m.modes(), m.capacity), iterations,
          static_cast<double>(iterations) / static_cast<double>(solved),
          fmt::join(*best.policy.thresholds(), ","), best.cost);
      std::fflush(stdout);
    }
  });
}
