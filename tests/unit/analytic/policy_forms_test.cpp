// Each form of control policy: the exact engine solves the level map and names the forms it
// refuses; policy_kind names each.
#include <catch2/catch.hpp>

#include "analytic/policy_forms.hpp"

namespace crawlq {

TEST_CASE("the exact engine takes level maps and names the forms it refuses", "[analytic][policy]") {
  const model::ControlPolicy levels = model::Policy::from_levels({2, 2, 1}, 2, 2);
  const model::ControlPolicy table = model::make_phase_aware({{2, 1}, {1, 1}, {1, 1}}, 2, 2, 2, "policy.phase-aware");
  const model::ControlPolicy hysteresis = model::make_hysteresis(2, 1, 2, 0, 2, 2, "policy.hysteresis");
  CHECK(analytic::exact_refusal(levels).empty());
  CHECK(analytic::exact_level_map(levels) == std::get<model::Policy>(levels));
  CHECK_THAT(analytic::exact_refusal(table), Catch::StartsWith("a phase-aware policy"));
  CHECK_THAT(analytic::exact_refusal(hysteresis), Catch::StartsWith("a hysteresis policy"));
  CHECK_FALSE(analytic::exact_level_map(table));
  CHECK_FALSE(analytic::exact_level_map(hysteresis));
  CHECK(model::policy_kind(levels) == "levels");
  CHECK(model::policy_kind(table) == "phase-aware");
  CHECK(model::policy_kind(hysteresis) == "hysteresis");
}

}  // namespace crawlq
