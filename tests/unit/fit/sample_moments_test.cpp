// The sample's raw moments against a sample small enough to add up by hand: {1, 2, 4} has
// E[X] = 7/3, E[X^2] = (1 + 4 + 16)/3 = 7, E[X^3] = (1 + 8 + 64)/3 = 73/3, E[X^4] = (1 + 16 +
// 256)/3 = 91.
#include <catch2/catch.hpp>
#include <vector>

#include "fit/ph_moment_fit.hpp"

namespace crawlq {
namespace {

TEST_CASE("fit: sample moments of {1, 2, 4} are 7/3, 7, 73/3 and 91", "[fit]") {
  const std::vector<double> m = fit::sample_moments({1.0, 2.0, 4.0}, 4);
  REQUIRE(m.size() == 4);
  CHECK(m[0] == Approx(7.0 / 3.0).epsilon(1e-15));
  CHECK(m[1] == Approx(7.0).epsilon(1e-15));
  CHECK(m[2] == Approx(73.0 / 3.0).epsilon(1e-15));
  CHECK(m[3] == Approx(91.0).epsilon(1e-15));
}

TEST_CASE("fit: a constant sample's moments are the powers of the constant", "[fit]") {
  // One value, any count: E[X^n] = c^n (0.5 keeps every power exact in binary).
  const std::vector<double> m = fit::sample_moments({0.5, 0.5, 0.5, 0.5, 0.5}, 3);
  REQUIRE(m.size() == 3);
  CHECK(m[0] == 0.5);
  CHECK(m[1] == 0.25);
  CHECK(m[2] == 0.125);
}

}  // namespace
}  // namespace crawlq
