// How to simulate a policy of your own with crawlq's library.
//
// A policy answers one question, `robots(view)`: how many robots should be active now? The view
// holds what a controller can see: the number of pages in the system (`level`, the page in service
// included), the robots' arrival phase, the robots active now and the time. Derive from
// crawlq::sim::Policy, implement robots(), and hand an instance to crawlq::sim::simulate (or
// compare_policies, to set it against another policy on common random numbers).
//
// The simulator asks after every event and, when the answer changes, switches the robots at once.
// Keep robots() cheap (it runs tens of millions of times a second) and const: replications run on
// several threads with the same policy object.
//
// Build: part of the project (target `user_policy_example`). Run:
//   build/examples/user_policy_example [scenario.yaml]
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "scenarios/scenario_loader.hpp"
#include "sim/policy.hpp"
#include "sim/replications.hpp"

namespace {

// Example: all robots while the buffer is nearly empty, one robot when it is nearly full, and in
// between many robots only in the robots' "quiet" arrival phase (phase 1 of the paper's example has
// the lower batch rate), so that bursts do not overflow the buffer.
class QuietPhasePolicy final : public crawlq::sim::Policy {
 public:
  QuietPhasePolicy(int modes, int capacity) : modes_(modes), capacity_(capacity) {}

  int robots(const crawlq::sim::SystemView& view) const override {
    if (view.level <= 1) return modes_;
    if (view.level >= capacity_ - 1) return 1;
    return view.arrival_phase == 1 ? std::max(1, modes_ - 1) : 1;
  }

 private:
  int modes_, capacity_;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace crawlq;
  const std::string first = argc > 1 ? argv[1] : "";
  if (argc > 2 || first == "--help" || first == "-h" || (first.size() > 1 && first[0] == '-')) {
    fmt::print(
        first == "--help" || first == "-h" ? stdout : stderr,
        "usage: user_policy_example [scenario.yaml]\n"
        "Simulates QuietPhasePolicy against the file's policy (default: the paper's first example).\n");
    return first == "--help" || first == "-h" ? 0 : 2;
  }
  const std::string file =
      argc > 1 ? first : CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml";
  // Bad input arrives as ScenarioError, its message naming the file, the key and the value.
  std::optional<scenarios::Scenario> scenario;
  try {
    scenario = scenarios::load_scenario(file);
  } catch (const scenarios::ScenarioError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return 2;
  }
  const model::Model& m = scenario->model;
  if (!m.level_map()) {
    fmt::print(stderr, "{}: policy: give the file a level map or thresholds to compare with\n",
               file);
    return 2;
  }

  const QuietPhasePolicy mine(m.modes(), m.capacity);
  const sim::LevelMapPolicy file_policy(*m.level_map());
  const sim::ReplicationPlan plan{
      .seed = 1, .replications = 20, .warmup = 2000, .horizon = 20000, .threads = 0};
  const sim::PolicyComparison c = sim::compare_policies(m, file_policy, mine, plan);

  fmt::print("{}: the file's policy costs {:.4f} +- {:.4f}\n", file, c.a.cost.mean,
             c.a.cost.half_width);
  fmt::print("QuietPhasePolicy costs        {:.4f} +- {:.4f}\n", c.b.cost.mean,
             c.b.cost.half_width);
  fmt::print("difference (mine - file's), common random numbers: {:.4f} +- {:.4f}\n",
             c.difference.cost.mean, c.difference.cost.half_width);
  return 0;
}
