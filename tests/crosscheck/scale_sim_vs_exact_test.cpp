// At scale, the two engines still agree: the paper's example at K = 18 (1,048,574 states, the
// iterative solver) against 10 simulated replications, every measure within the Bonferroni-t bound
// of validate. About 30 s: labelled slow.
#include <catch2/catch.hpp>

#include "scenarios/scenario_loader.hpp"
#include "sim/policy.hpp"
#include "validation/engine_comparison.hpp"

using namespace crawlq;

TEST_CASE("simulator vs iterative exact engine at K = 18", "[crosscheck][slow][heavy]") {
  model::Model m = scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                            "/scenarios/data/paper-example-1.yaml")
                       .model;
  m.capacity = 18;
  m.policy = model::Policy::from_thresholds({-1, 2, 2}, 4, 18);
  validation::SimulationSettings settings;
  settings.seed = 18;
  settings.replications = 10;
  settings.precision = 0;
  const sim::LevelMapPolicy policy(*m.level_map());
  const auto c = validation::compare_engines(m, *m.level_map(), "", m, policy, settings);
  for (const auto& measure : c.measures) {
    INFO(measure.name << ": exact " << *measure.exact << ", simulated " << measure.simulated.mean
                      << " +- " << measure.simulated.half_width << ", z " << measure.z
                      << " (seed 18)");
    CHECK(measure.verdict == validation::Verdict::kAgrees);
  }
}
