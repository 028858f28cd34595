// The controlled arrival process of each policy form: which mode's rows drive each environment
// phase, and the mode switches of a policy with memory.
#include "analytic/stationary/controlled_arrivals.hpp"

#include <catch2/catch.hpp>

#include "analytic/stationary/policy_forms.hpp"

namespace crawlq {

namespace {

// Two modes of a two-phase MAP: mode r has D_1 = r A.
model::Model two_phase_two_modes() {
  model::Matrix d0(2, 2), a(2, 2);
  d0 << -3, 1, 2, -5;
  a << 1.5, 0.5, 1, 2;
  std::vector<model::Bmap> modes;
  for (int r = 1; r <= 2; ++r) {
    model::Matrix d0r = d0;
    d0r.diagonal() -= (r - 1) * a.rowwise().sum();
    modes.emplace_back(std::vector<model::Matrix>{d0r, r * a});
  }
  return model::Model{.name = "two",
                      .capacity = 2,
                      .arrivals = model::ArrivalModes(std::move(modes)),
                      .service = model::PhaseType::exponential(2.0),
                      .obsolescence = std::nullopt,
                      .costs = {},
                      .policy = {}};
}

}  // namespace

TEST_CASE("a phase-aware policy takes each phase's rows from its own mode", "[analytic][policy]") {
  const model::Model m = two_phase_two_modes();
  const auto table =
      model::make_phase_aware({{2, 1}, {1, 1}, {2, 2}}, 2, 2, 2, "policy.phase-aware");
  const analytic::ControlledArrivals arrivals(m, table);
  CHECK(arrivals.phases() == 2);
  CHECK_FALSE(arrivals.remembers());
  CHECK_FALSE(arrivals.on_entering(1));
  const analytic::ArrivalRows& mixed = arrivals.at_level(0);
  CHECK(mixed.d_k(1).row(0) == m.arrivals.mode(2).d(1).row(0));
  CHECK(mixed.d_k(1).row(1) == m.arrivals.mode(1).d(1).row(1));
  CHECK(mixed.d_k(0).row(0) == m.arrivals.mode(2).d(0).row(0));
  CHECK(arrivals.robots(0, 0) == 2);
  CHECK(arrivals.robots(0, 1) == 1);
  // A row that runs one mode in every phase is that mode's BMAP, and keys as a level map's level.
  CHECK(arrivals.at_level(2).d_k(1) == m.arrivals.mode(2).d(1));
  const analytic::ControlledArrivals levels(m, model::Policy::from_levels({1, 1, 2}, 2, 2));
  CHECK(arrivals.signature(2) == levels.signature(2));
  CHECK(arrivals.signature(0) != levels.signature(0));
  CHECK(analytic::exact_refusal(table).empty());
}

TEST_CASE("a memory policy carries the mode in force and switches it on a change of level",
          "[analytic][policy]") {
  const model::Model m = two_phase_two_modes();
  // Level 0: mode 2 whatever was in force; level 1: keep; level 2: mode 1.
  const auto memory = model::make_memory({{2, 2}, {1, 2}, {1, 1}}, 2, 2, "policy.memory");
  const analytic::ControlledArrivals arrivals(m, memory);
  REQUIRE(arrivals.phases() == 4);  // (mode, arrival phase), mode-major
  CHECK(arrivals.remembers());
  CHECK(arrivals.robots(1, 1) == 1);
  CHECK(arrivals.robots(1, 3) == 2);
  // Between changes of level each mode keeps its own matrices.
  const model::Matrix d1 = arrivals.at_level(1).d_k(1);
  CHECK(d1.block(0, 0, 2, 2) == m.arrivals.mode(1).d(1));
  CHECK(d1.block(2, 2, 2, 2) == m.arrivals.mode(2).d(1));
  CHECK(d1.block(0, 2, 2, 2).isZero());
  // Entering level 0 from mode 1, phase 1: mode 2, phase 1.
  CHECK(arrivals.entered_phase(0, 1) == 3);
  CHECK(arrivals.entered_phase(1, 1) == 1);
  CHECK(arrivals.entered_phase(2, 3) == 1);
  // The switch as a matrix: one 1 a row, where entered_phase says.
  const auto jump = arrivals.on_entering(0);
  REQUIRE(jump);
  for (int phase = 0; phase < 4; ++phase) {
    CHECK(jump->row(phase).sum() == 1);
    CHECK((*jump)(phase, arrivals.entered_phase(0, phase)) == 1);
  }
  // A batch admitted at level 0 lands at level 1 (keep) or 2 (mode 1): the switch comes with it.
  const auto admitted = arrivals.by_admitted(0);
  REQUIRE(admitted.size() == 2);
  CHECK(admitted[1] == arrivals.at_level(0).d_k(1) * *arrivals.on_entering(1));
  // Level 0 always runs mode 2: that is where the solvers pin the chain.
  CHECK(arrivals.recurrent_empty_phase() == arrivals.environment_phase(2, 0));
}

TEST_CASE("a memory table whose long run depends on the starting mode is refused by name",
          "[analytic][policy]") {
  const model::Model m = two_phase_two_modes();
  const auto keep = model::make_memory({{1, 2}, {1, 2}, {1, 2}}, 2, 2, "policy.memory");
  CHECK_THROWS_WITH(
      analytic::ControlledArrivals(m, keep),
      Catch::StartsWith(
          "policy.memory: the empty system with mode 1 in force never comes to mode 2"));
}

TEST_CASE("hysteresis is the memory table of its decisions", "[analytic][policy]") {
  const auto h = model::make_hysteresis(3, 1, 4, 1, 3, 5, "policy.hysteresis");
  const model::MemoryPolicy memory = model::as_memory(h, 3, 5);
  REQUIRE(memory.next.size() == 6);
  for (int level = 0; level <= 5; ++level) {
    INFO("level " << level);
    CHECK(memory.next[level][2] == (level >= 4 ? 1 : 3));  // high until switch_off
    CHECK(memory.next[level][0] == (level <= 1 ? 3 : 1));  // low until switch_on
  }
  CHECK(model::policy_kind(h) == "hysteresis");
  CHECK(model::policy_kind(memory) == "memory");
}

}  // namespace crawlq
