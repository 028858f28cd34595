// A log replayed through the simulator (simulate --arrivals-log) against the exact answer of the
// MAP that wrote it: a long log of batches from a MAP of order 2, a scenario whose mode r is r D
// (as fit arrivals builds it), every measure within validate's bound. The same log run 1.5 times as
// fast is told apart, so the replay is what the simulator ran.
#include <catch2/catch.hpp>
#include <memory>
#include <random>

#include "scenarios/scenario_loader.hpp"
#include "sim/policy.hpp"
#include "tests/unit/fit/map_sampler.hpp"
#include "validation/engine_comparison.hpp"

using namespace crawlq;

namespace {

// One robot's MAP of batches: D0, D1 (rows of D0 + D1 sum to 0), batches of 1 or 2 pages (0.6,
// 0.4); mode r is r D.
const char* const kScenario = R"(
name: replay-check
capacity: 6
arrivals:
  kind: per-mode
  modes:
    - D: [[[-1.3, 0.2], [0.1, -0.45]], [[0.48, 0.18], [0.03, 0.18]], [[0.32, 0.12], [0.02, 0.12]]]
    - D: [[[-2.6, 0.4], [0.2, -0.9]], [[0.96, 0.36], [0.06, 0.36]], [[0.64, 0.24], [0.04, 0.24]]]
    - D: [[[-3.9, 0.6], [0.3, -1.35]], [[1.44, 0.54], [0.09, 0.54]], [[0.96, 0.36], [0.06, 0.36]]]
service: {beta: [0.3, 0.7], S: [[-4, 1], [0.5, -2.2]]}
obsolescence: {gamma: [1], Gamma: [[-0.4]]}
costs: {loss: 5, obsolescence: 10, sojourn: 2, robot: 3, starvation: 30}
policy: {thresholds: [1, 3]}
)";

// The MAP's batches over about `length` units of time: gaps and sizes.
std::shared_ptr<model::ArrivalTrace> trace_of(double speed, double length) {
  model::Matrix d0(2, 2), d1(2, 2);
  d0 << -1.3, 0.2, 0.1, -0.45;
  d1 << 0.8, 0.3, 0.05, 0.3;
  const int batches = static_cast<int>(length * 0.8);
  const std::vector<double> starts = fit_test::map_times(d0, d1, batches, 77);
  std::mt19937_64 engine(78);
  std::bernoulli_distribution pair(0.4);
  auto trace = std::make_shared<model::ArrivalTrace>();
  trace->source = "replayed.log";
  for (std::size_t i = 1; i < starts.size(); ++i) {
    trace->gaps.push_back((starts[i] - starts[i - 1]) / speed);
    trace->sizes.push_back(pair(engine) ? 2 : 1);
  }
  return trace;
}

validation::EngineComparison replayed(double speed) {
  const model::Model exact = scenarios::parse_scenario(kScenario, "replay-check").model;
  model::Model replay = exact;
  replay.replayed_arrivals = trace_of(speed, 1e6);
  validation::SimulationSettings settings;
  settings.seed = 5;
  settings.replications = 20;
  settings.precision = 0;
  settings.horizon = 2000;
  settings.warmup = 100;
  const sim::LevelMapPolicy policy(*exact.level_map());
  return validation::compare_engines(exact, *exact.level_map(), "", replay, policy, settings);
}

}  // namespace

TEST_CASE(
    "a MAP's log replayed agrees with the MAP's exact answer, and one replayed faster does not",
    "[crosscheck]") {
  const validation::EngineComparison same = replayed(1.0);
  REQUIRE_FALSE(same.measures.empty());
  for (const auto& measure : same.measures) {
    INFO(measure.name << ": exact " << *measure.exact << ", replayed " << measure.simulated.mean
                      << " +- " << measure.simulated.half_width << ", z " << measure.z);
    CHECK(measure.verdict == validation::Verdict::kAgrees);
  }
  const validation::EngineComparison faster = replayed(1.5);
  int differs = 0;
  for (const auto& measure : faster.measures)
    differs += measure.verdict == validation::Verdict::kDiffers;
  CHECK(differs >= 3);
}
