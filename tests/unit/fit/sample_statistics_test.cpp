// fit's log statistics against a sample computed by hand: {1, 2, 4} and {3} as two runs of a log.
#include "fit/sample_statistics.hpp"

#include <catch2/catch.hpp>

using namespace crawlq;

TEST_CASE("sample statistics of a hand-computed log: n - 1 variance, scv, lag 1 within runs",
          "[fit]") {
  // Mean (1 + 2 + 4 + 3) / 4 = 2.5; squares 2.25 + 0.25 + 2.25 + 0.25 = 5, variance 5 / 3 (not 5 /
  // 4), scv (5 / 3) / 6.25 = 4 / 15. Lag 1 pairs only within the first run: (2, 1) and (4, 2),
  // products
  // (-0.5)(-1.5) + (1.5)(-0.5) = 0, so the correlation is 0 over centred variance 5 / 4.
  const fit::SampleStatistics s = fit::sample_statistics({{1, 2, 4}, {3}}, 1);
  CHECK(s.size == 4);
  CHECK(s.mean == Approx(2.5).epsilon(1e-15));
  CHECK(s.variance == Approx(5.0 / 3.0).epsilon(1e-15));
  CHECK(s.scv == Approx(4.0 / 15.0).epsilon(1e-15));
  REQUIRE(s.lag_correlations.size() == 1);
  CHECK(s.lag_correlations[0] == Approx(0.0).margin(1e-15));
}
