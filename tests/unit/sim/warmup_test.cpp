#include "sim/warmup.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <optional>

#include "sim/policy.hpp"
#include "tests/support/birth_death.hpp"

TEST_CASE("MSER-5 drops an initial transient and keeps a stationary series", "[sim][warmup]") {
  // 1000 values: a decaying start (10, 9.5, ...) for 100 values, then a fixed alternating pattern.
  std::vector<double> series;
  for (int i = 0; i < 1000; ++i)
    series.push_back((i < 100 ? 10.0 * (1 - i / 100.0) : 0.0) + (i % 2 ? 0.3 : -0.3));
  const auto d = crawlq::sim::mser5_truncation(series);
  CHECK(d >= 80);
  CHECK(d <= 110);
  std::vector<double> flat;
  for (int i = 0; i < 1000; ++i) flat.push_back(std::sin(i * 0.7));
  CHECK(crawlq::sim::mser5_truncation(flat) <= 100);
}

using crawlq::test_support::birth_death;

TEST_CASE("the warm-up pilot runs a quarter horizon, and the whole one after a long transient",
          "[sim][warmup]") {
  using crawlq::sim::kPilotShare;
  const double horizon = 2000;
  // A queue that settles within a few time units: the quarter pilot decides.
  const auto quick = birth_death({3.0}, 2.0, 5);
  const crawlq::sim::LevelMapPolicy one(crawlq::model::Policy::constant(1, 1, 5));
  const auto settled = crawlq::sim::mser5_pilot(quick, one, 3, horizon);
  CHECK(settled.pilot == kPilotShare * horizon);
  CHECK(settled.warmup < crawlq::sim::kLongTransient * settled.pilot);
  // Pages come twice as fast as they leave into room for 1000: the level climbs for about 1000
  // time units, past the quarter pilot's half, so the whole horizon decides.
  const auto slow = birth_death({2.0}, 1.0, 1000);
  const crawlq::sim::LevelMapPolicy always(crawlq::model::Policy::constant(1, 1, 1000));
  const auto climbing = crawlq::sim::mser5_pilot(slow, always, 3, horizon);
  CHECK(climbing.pilot == horizon);
  CHECK(climbing.warmup > horizon / 4);
}
