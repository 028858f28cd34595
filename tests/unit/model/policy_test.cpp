#include "model/policy.hpp"

#include <catch2/catch.hpp>

using crawlq::model::Policy;

TEST_CASE("thresholds map to robots per level as interface.md says", "[policy]") {
  // [-1, 2, 2] with N = 4, K = 5: mode 4 unused, 3 robots at levels 0..2, 1 robot at 3..5.
  const Policy p = Policy::from_thresholds({-1, 2, 2}, 4, 5);
  CHECK(p.levels() == std::vector<int>{3, 3, 3, 1, 1, 1});
  CHECK(p.thresholds() == std::vector<int>{-1, 2, 2});
  // The last row of Table 1: 4 robots at level 0, 3 at 1..2, 1 above.
  CHECK(Policy::from_thresholds({0, 2, 2}, 4, 5).levels() == std::vector<int>{4, 3, 3, 1, 1, 1});
  CHECK(Policy::from_thresholds({5, 5, 5}, 4, 5).levels() == std::vector<int>(6, 4));
  CHECK(Policy::from_thresholds({-1, -1, -1}, 4, 5).levels() == std::vector<int>(6, 1));
  CHECK(Policy::from_thresholds({}, 1, 3).levels() == std::vector<int>(4, 1));
}

TEST_CASE("thresholds and level maps round-trip", "[policy]") {
  for (int a = -1; a <= 4; ++a)
    for (int b = a; b <= 4; ++b) {
      const Policy p = Policy::from_thresholds({a, b}, 3, 4);
      CHECK(p.thresholds() == std::vector<int>{a, b});
    }
  CHECK_FALSE(Policy::from_levels({1, 2, 1}, 2, 2).thresholds());
}

TEST_CASE("broken policies are refused with the key", "[policy]") {
  CHECK_THROWS_WITH(Policy::from_thresholds({2, 1, 3}, 4, 5),
                    Catch::Contains("policy.thresholds[1]"));
  CHECK_THROWS_WITH(Policy::from_thresholds({2, 3}, 4, 5),
                    Catch::Contains("policy.thresholds") && Catch::Contains("2 values"));
  CHECK_THROWS_WITH(Policy::from_thresholds({-2, 3, 3}, 4, 5), Catch::Contains("[0]"));
  CHECK_THROWS_WITH(Policy::from_levels({1, 2}, 2, 2), Catch::Contains("policy.levels"));
  CHECK_THROWS_WITH(Policy::from_levels({1, 3, 1}, 2, 2), Catch::Contains("policy.levels[1]"));
}
