// Policies the exact engine cannot run, checked through cases where they reduce to a level map:
// then the simulation must be the very same, number for number, for the same seed.
#include <catch2/catch.hpp>

#include "sim/policy.hpp"
#include "sim/replications.hpp"

using namespace crawlq;

namespace {
model::Model two_phase_model() {
  model::Matrix d0(2, 2), d1(2, 2), d2(2, 2);
  d0 << -3, 1, 0.5, -1;
  d1 << 1, 0.5, 0, 0.25;
  d2 << 0.5, 0, 0, 0.25;
  const model::Bmap slow({0.5 * d0, 0.5 * d1, 0.5 * d2});
  const model::Bmap fast({2.0 * d0, 2.0 * d1, 2.0 * d2});
  return model::Model{
      .name = "policies",
      .capacity = 4,
      .arrivals = model::ArrivalModes({slow, fast}),
      .service = model::PhaseType::exponential(2.0),
      .obsolescence = model::PhaseType::exponential(0.4),
      .costs = {.loss = 1, .obsolescence = 1, .sojourn = 1, .robot = 1, .starvation = 1},
      .policy = {}};
}

void check_same(const sim::SimulationSummary& a, const sim::SimulationSummary& b) {
  REQUIRE(a.replications.size() == b.replications.size());
  for (std::size_t r = 0; r < a.replications.size(); ++r) {
    CHECK(a.replications[r].cost == b.replications[r].cost);
    CHECK(a.replications[r].level_probabilities == b.replications[r].level_probabilities);
  }
  CHECK(a.events == b.events);
}

const sim::ReplicationPlan kPlan{
    .seed = 8, .replications = 4, .warmup = 10, .horizon = 2000, .threads = 2};
}  // namespace

TEST_CASE("hysteresis with switch_on = switch_off - 1 is the threshold policy", "[sim][policy]") {
  const model::Model m = two_phase_model();
  const sim::HysteresisPolicy hysteresis(
      model::make_hysteresis(2, 1, 3, 2, 2, 4, "policy.hysteresis"));
  const sim::LevelMapPolicy thresholds(model::Policy::from_thresholds({2}, 2, 4));
  check_same(sim::simulate(m, hysteresis, kPlan), sim::simulate(m, thresholds, kPlan));
}

TEST_CASE("a wider hysteresis band keeps the fast mode longer", "[sim][policy]") {
  // Band (on 1, off 3): fast at levels 0..1, slow from 3 up, and at level 2 fast only while rising
  // (slow when coming down from 3). So its time in the fast mode lies strictly between the
  // threshold policies fast on 0..1 and fast on 0..2.
  const model::Model m = two_phase_model();
  const sim::HysteresisPolicy band(model::make_hysteresis(2, 1, 3, 1, 2, 4, "policy.hysteresis"));
  const sim::LevelMapPolicy fast_to_2(model::Policy::from_thresholds({2}, 2, 4));
  const sim::LevelMapPolicy fast_to_1(model::Policy::from_thresholds({1}, 2, 4));
  const auto s_band = sim::simulate(m, band, kPlan);
  const auto s_2 = sim::simulate(m, fast_to_2, kPlan);
  const auto s_1 = sim::simulate(m, fast_to_1, kPlan);
  // Fast on levels 0..1 always, on 2 only when coming down from 3 or more: between the two.
  CHECK(s_band.mode_probabilities[1].mean < s_2.mode_probabilities[1].mean);
  CHECK(s_band.mode_probabilities[1].mean > s_1.mode_probabilities[1].mean);
}

TEST_CASE("a phase-aware table that ignores the phase is the level map", "[sim][policy]") {
  const model::Model m = two_phase_model();
  const sim::PhaseAwarePolicy table(
      model::make_phase_aware({{2, 2}, {2, 2}, {1, 1}, {1, 1}, {1, 1}}, 2, 4, 2, "p"));
  const sim::LevelMapPolicy levels(model::Policy::from_levels({2, 2, 1, 1, 1}, 2, 4));
  check_same(sim::simulate(m, table, kPlan), sim::simulate(m, levels, kPlan));
  // Using the phase changes the path.
  const sim::PhaseAwarePolicy by_phase(
      model::make_phase_aware({{2, 1}, {2, 1}, {1, 1}, {1, 1}, {1, 1}}, 2, 4, 2, "p"));
  CHECK(sim::simulate(m, by_phase, kPlan).replications[0].cost !=
        sim::simulate(m, levels, kPlan).replications[0].cost);
}

TEST_CASE("make_policy runs every form of control policy as that form", "[sim][policy]") {
  const model::ControlPolicy levels = model::Policy::from_levels({2, 2, 1, 1, 1}, 2, 4);
  const model::ControlPolicy table =
      model::make_phase_aware({{2, 1}, {2, 1}, {1, 1}, {1, 1}, {1, 1}}, 2, 4, 2, "t");
  const model::ControlPolicy hysteresis = model::make_hysteresis(2, 1, 3, 1, 2, 4, "h");
  const sim::SystemView level_two_phase_one{.level = 2, .arrival_phase = 1, .robots = 2};
  CHECK(sim::make_policy(levels)->robots(level_two_phase_one) == 1);
  CHECK(sim::make_policy(table)->robots({.level = 1, .arrival_phase = 1, .robots = 2}) == 1);
  CHECK(sim::make_policy(table)->robots({.level = 1, .arrival_phase = 0, .robots = 2}) == 2);
  // Hysteresis keeps 2 robots at level 2 on the way up, 1 on the way down from switch_off.
  CHECK(sim::make_policy(hysteresis)->robots(level_two_phase_one) == 2);
  CHECK(sim::make_policy(hysteresis)->robots({.level = 2, .arrival_phase = 0, .robots = 1}) == 1);
}
