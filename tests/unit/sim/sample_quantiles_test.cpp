#include "sim/sample_quantiles.hpp"

#include <catch2/catch.hpp>

using crawlq::sim::SampleQuantiles;

TEST_CASE("quantiles of a small stream are exact order statistics", "[sim][quantiles]") {
  SampleQuantiles q;
  for (int i = 100; i >= 1; --i) q.add(i);
  CHECK(q.quantile(0.5) == 50);
  CHECK(q.quantile(0.9) == 90);
  CHECK(q.quantile(0.99) == 99);
  CHECK(q.quantile(1.0) == 100);
  CHECK(SampleQuantiles().quantile(0.5) == 0);
}

TEST_CASE("thinning keeps memory bounded and the quantiles right", "[sim][quantiles]") {
  // 1..1,000,000 through a store of 1000: a systematic subsample of a uniform ramp.
  SampleQuantiles q(1000);
  for (int i = 1; i <= 1000000; ++i) q.add(i);
  CHECK(q.kept() < 1000);
  CHECK(q.kept() >= 500);
  CHECK(q.quantile(0.5) == Approx(500000).epsilon(0.005));
  CHECK(q.quantile(0.9) == Approx(900000).epsilon(0.005));
}
