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

TEST_CASE("thinning keeps exactly the values at multiples of the stride", "[sim][quantiles]") {
  // Capacity 8: after 8 kept values the stride doubles; what is kept must be 0, s, 2s, ... of the
  // stream, whatever the point the stream stops at.
  for (int n : {7, 8, 9, 16, 17, 33, 100, 1000}) {
    INFO("n = " << n);
    SampleQuantiles q(8);
    for (int i = 0; i < n; ++i) q.add(i);
    // The kept values are 0, s, 2s, ...: the largest kept is a multiple of the stride, and the
    // kept count is floor((n - 1) / s) + 1 for that stride.
    const double top = q.quantile(1.0);
    std::size_t stride = 1;
    while ((n - 1) / stride + 1 >= 8) stride *= 2;
    CHECK(static_cast<std::size_t>(top) % stride == 0);
    CHECK(q.kept() == (n - 1) / stride + 1);
  }
  const auto many = [] {
    SampleQuantiles q;
    for (int i = 1; i <= 100; ++i) q.add(i);
    return q.quantiles({0.5, 0.9, 0.99});
  }();
  CHECK(many == std::vector<double>{50, 90, 99});
}
