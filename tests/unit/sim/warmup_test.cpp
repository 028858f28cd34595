#include "sim/warmup.hpp"

#include <catch2/catch.hpp>
#include <cmath>

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
