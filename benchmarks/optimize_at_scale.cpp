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

#include "analytic/memory_estimate.hpp"
#include "analytic/policy_search.hpp"
#include "scenarios/scenario_loader.hpp"

namespace {

struct Task {
  std::string search;
  int capacity;
};

int usage() {
  fmt::print(stderr,
             "usage: optimize_at_scale [--threads P] [--method NAME] [SEARCH:K ...]\n"
             "  SEARCH: exhaustive | exhaustive-warm | local | local-warm\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace crawlq;
  int threads = 0;
  analytic::Method method = analytic::Method::kAuto;
  std::vector<Task> tasks;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--threads" && a + 1 < argc) {
      threads = std::atoi(argv[++a]);
    } else if (arg == "--method" && a + 1 < argc) {
      method = analytic::parse_method(argv[++a]);
    } else if (const auto colon = arg.find(':'); colon != std::string::npos) {
      tasks.push_back({arg.substr(0, colon), std::atoi(arg.c_str() + colon + 1)});
      if (tasks.back().capacity < 1) return usage();
    } else {
      return usage();
    }
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
    if (search != "exhaustive" && search != "local") return usage();
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
}
