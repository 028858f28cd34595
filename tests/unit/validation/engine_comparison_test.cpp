// The verdict of `validate`: a model against itself agrees on every measure; a simulator fed a
// service twice as fast disagrees; without an exact value nothing is judged; the bound is the
// Bonferroni-t of the header, recomputed here from its definition.
#include "validation/engine_comparison.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "scenarios/scenario_loader.hpp"

using namespace crawlq;

namespace {

scenarios::Scenario teaching() {
  return scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                  "/scenarios/data/teaching-two-robots.yaml");
}

validation::SimulationSettings short_run() {
  validation::SimulationSettings s;
  s.seed = 11;
  s.replications = 8;
  s.horizon = 20000;
  s.warmup = 100;
  s.precision = 0;
  return s;
}

}  // namespace

TEST_CASE("compare_engines: a model against itself agrees, with the documented bound",
          "[validation]") {
  const auto scenario = teaching();
  const sim::LevelMapPolicy policy(*scenario.model.level_map());
  const auto c = validation::compare_engines(scenario.model, *scenario.model.level_map(), "",
                                             scenario.model, policy, short_run());
  CHECK(c.agrees());
  CHECK(c.replications == 8);
  // Every measure both engines give: 12 scalar measures (the queue's means among them) + K+1 levels
  // + N modes.
  REQUIRE(c.measures.size() == 12 + 5 + 2);
  CHECK(c.measures[6].name == "mean_in_system");
  CHECK(c.measures[7].name == "mean_in_queue");
  const boost::math::students_t t(7);
  CHECK(c.z_bound == Approx(boost::math::quantile(boost::math::complement(t, 0.01 / (2.0 * 19)))));
  for (const auto& m : c.measures) {
    INFO(m.name);
    REQUIRE(m.exact);
    CHECK(m.verdict == validation::Verdict::kAgrees);
    const double t95 = boost::math::quantile(boost::math::complement(t, 0.025));
    if (m.simulated.half_width > 0)
      CHECK(m.z == Approx((m.simulated.mean - *m.exact) / (m.simulated.half_width / t95)));
  }
}

TEST_CASE("compare_engines: a simulator fed another service law disagrees", "[validation]") {
  const auto scenario = teaching();
  model::Model faster = scenario.model;
  faster.service = model::PhaseType(faster.service.initial(), 2.0 * faster.service.subgenerator());
  const sim::LevelMapPolicy policy(*scenario.model.level_map());
  const auto c = validation::compare_engines(scenario.model, *scenario.model.level_map(), "",
                                             faster, policy, short_run());
  CHECK_FALSE(c.agrees());
  for (const auto& m : c.measures)
    if (m.name == "p_loss" || m.name == "mean_sojourn_served") {
      INFO(m.name << " z = " << m.z);
      CHECK(m.verdict == validation::Verdict::kDiffers);
      CHECK(m.z < 0);  // a faster server loses fewer pages and keeps them less
    }
}

TEST_CASE("verdict_of: agrees up to the bound itself, differs just past it, on either side",
          "[validation]") {
  // 3.8987 is the bound of 19 measures over 7 degrees of freedom above; any positive bound will do.
  const double bound = 3.8987;
  CHECK(validation::verdict_of(0.0, bound) == validation::Verdict::kAgrees);
  CHECK(validation::verdict_of(bound, bound) == validation::Verdict::kAgrees);
  CHECK(validation::verdict_of(-bound, bound) == validation::Verdict::kAgrees);
  CHECK(validation::verdict_of(std::nextafter(bound, 10.0), bound) ==
        validation::Verdict::kDiffers);
  CHECK(validation::verdict_of(-std::nextafter(bound, 10.0), bound) ==
        validation::Verdict::kDiffers);
  CHECK(validation::verdict_of(1.5 * bound, bound) == validation::Verdict::kDiffers);
  CHECK(validation::verdict_of(HUGE_VAL, bound) == validation::Verdict::kDiffers);
  CHECK(validation::verdict_of(-HUGE_VAL, bound) == validation::Verdict::kDiffers);
}

TEST_CASE("compare_engines: each verdict is that of its z and the bound, recomputed",
          "[validation]") {
  const auto scenario = teaching();
  model::Model slower = scenario.model;
  // A server 4% slower: some measures differ by a few standard errors, others not, so the verdicts
  // are decided near the bound as well as far from it.
  slower.service = model::PhaseType(slower.service.initial(), 0.96 * slower.service.subgenerator());
  const sim::LevelMapPolicy policy(*scenario.model.level_map());
  const auto c = validation::compare_engines(scenario.model, *scenario.model.level_map(), "",
                                             slower, policy, short_run());
  int near_the_bound = 0;
  for (const auto& m : c.measures) {
    INFO(m.name << " z = " << m.z << ", bound " << c.z_bound);
    CHECK(m.verdict == (std::abs(m.z) <= c.z_bound ? validation::Verdict::kAgrees
                                                   : validation::Verdict::kDiffers));
    if (std::abs(m.z) > c.z_bound && std::abs(m.z) <= 2 * c.z_bound) ++near_the_bound;
  }
  // The seed is fixed: differences within twice the bound are what a looser bound would pass.
  CHECK(near_the_bound >= 3);
}

TEST_CASE("compare_engines: without an exact policy every measure is simulated only",
          "[validation]") {
  const auto scenario = teaching();
  const sim::LevelMapPolicy policy(*scenario.model.level_map());
  const auto c = validation::compare_engines(scenario.model, std::nullopt, "too large",
                                             scenario.model, policy, short_run());
  CHECK(c.agrees());
  CHECK(c.exact_engine_absent == "too large");
  for (const auto& m : c.measures) {
    CHECK_FALSE(m.exact);
    CHECK(m.verdict == validation::Verdict::kSimulatedOnly);
  }
}

TEST_CASE("compare_engines: models of different shape are refused", "[validation]") {
  const auto scenario = teaching();
  model::Model bigger = scenario.model;
  bigger.capacity += 1;
  bigger.policy.reset();
  const sim::LevelMapPolicy policy(*scenario.model.level_map());
  CHECK_THROWS_AS(validation::compare_engines(scenario.model, *scenario.model.level_map(), "",
                                              bigger, policy, short_run()),
                  std::invalid_argument);
}

TEST_CASE("unseen_is_likely: none of n pages befalls a chance d with chance (1 - d)^n",
          "[validation]") {
  // At n = 5000 pages and level 0.001 the chance that passes is 1 - 0.001^(1/5000), about 1.38e-3.
  const double n = 5000, level = 0.001, edge = 1 - std::pow(level, 1 / n);
  CHECK(validation::unseen_is_likely(0.0, n, level));
  CHECK(validation::unseen_is_likely(0.99 * edge, n, level));
  CHECK(validation::unseen_is_likely(-0.99 * edge, n, level));
  CHECK_FALSE(validation::unseen_is_likely(1.01 * edge, n, level));
  CHECK_FALSE(validation::unseen_is_likely(-1.01 * edge, n, level));
  CHECK_FALSE(validation::unseen_is_likely(1.0, n, level));
  // Ten times the pages: a tenth of the chance is the edge.
  CHECK_FALSE(validation::unseen_is_likely(0.2 * edge, 10 * n, level));
  CHECK(validation::unseen_is_likely(0.09 * edge, 10 * n, level));
}

TEST_CASE("compare_engines: a measure with no spread far from the exact value still differs",
          "[validation]") {
  const auto scenario = teaching();
  // A simulator whose pages never go stale: P_obs is 0 in every replication where the exact one
  // is far from it; thousands of pages make seeing no expiry at that chance all but impossible.
  model::Model never_stale = scenario.model;
  never_stale.obsolescence.reset();
  const sim::LevelMapPolicy policy(*scenario.model.level_map());
  const auto c = validation::compare_engines(scenario.model, *scenario.model.level_map(), "",
                                             never_stale, policy, short_run());
  bool judged = false;
  for (const auto& m : c.measures)
    if (m.name == "p_obsolete") {
      judged = true;
      REQUIRE(m.exact);
      CHECK(*m.exact > 0.01);
      CHECK(m.simulated.mean == 0);
      CHECK(m.simulated.half_width == 0);
      CHECK_FALSE(m.unseen);
      CHECK(m.verdict == validation::Verdict::kDiffers);
    }
  CHECK(judged);
}
