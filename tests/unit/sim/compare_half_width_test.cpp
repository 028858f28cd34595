// `simulate --compare`'s intervals against their formulas, recomputed here from the replications'
// own estimates: each policy's 95% half-width t_{0.975, n-1} s / sqrt(n), the independent
// half-width sqrt(hw_A^2 + hw_B^2), and the paired interval over the replications' differences B -
// A.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "sim/replications.hpp"

using namespace crawlq;

namespace {

// Student's t at 0.975 with 4 degrees of freedom (tables; scipy.stats.t.ppf(0.975, 4)).
constexpr double kT4 = 2.7764451051977987;
constexpr int kReplications = 5;

// One robot brings pages at 1, two at 2.5; service at 1.5, obsolescence at 0.3, four places.
model::Model two_modes() {
  const auto poisson = [](double rate) {
    return model::Bmap({model::Matrix::Constant(1, 1, -rate), model::Matrix::Constant(1, 1, rate)});
  };
  return model::Model{
      .name = "two-modes",
      .capacity = 4,
      .arrivals = model::ArrivalModes({poisson(1.0), poisson(2.5)}),
      .service = model::PhaseType::exponential(1.5),
      .obsolescence = model::PhaseType::exponential(0.3),
      .costs = {.loss = 5, .obsolescence = 10, .sojourn = 2, .robot = 1, .starvation = 30},
      .policy = {}};
}

struct Spread {
  double mean = 0, half_width = 0;
};

Spread by_formula(const std::vector<double>& x) {
  const double n = static_cast<double>(x.size());
  double mean = 0;
  for (double v : x) mean += v / n;
  double squares = 0;
  for (double v : x) squares += (v - mean) * (v - mean);
  return {mean, kT4 * std::sqrt(squares / (n - 1)) / std::sqrt(n)};
}

}  // namespace

TEST_CASE("compare: the independent half-width is sqrt(hw_A^2 + hw_B^2) of the replications' costs",
          "[sim][compare]") {
  const model::Model m = two_modes();
  const sim::LevelMapPolicy one(model::Policy::constant(1, 2, 4));
  const sim::LevelMapPolicy two(model::Policy::constant(2, 2, 4));
  const auto c = sim::compare_policies(
      m, one, two,
      {.seed = 3, .replications = kReplications, .warmup = 10, .horizon = 200, .threads = 2});
  REQUIRE(c.a.replications.size() == kReplications);
  REQUIRE(c.b.replications.size() == kReplications);
  std::vector<double> a, b, difference;
  for (int r = 0; r < kReplications; ++r) {
    a.push_back(c.a.replications[r].cost);
    b.push_back(c.b.replications[r].cost);
    difference.push_back(b.back() - a.back());
  }
  const Spread hw_a = by_formula(a), hw_b = by_formula(b), paired = by_formula(difference);
  CHECK(c.a.cost.mean == Approx(hw_a.mean).epsilon(1e-12));
  CHECK(c.a.cost.half_width == Approx(hw_a.half_width).epsilon(1e-9));
  CHECK(c.b.cost.half_width == Approx(hw_b.half_width).epsilon(1e-9));
  // The two policies' costs spread differently, so hw_A alone cannot stand in for both.
  REQUIRE(std::abs(hw_a.half_width - hw_b.half_width) > 0.05 * hw_b.half_width);
  const double independent =
      std::sqrt(hw_a.half_width * hw_a.half_width + hw_b.half_width * hw_b.half_width);
  CHECK(c.independent_cost_half_width == Approx(independent).epsilon(1e-9));
  CHECK(c.difference.cost.mean == Approx(paired.mean).epsilon(1e-9));
  CHECK(c.difference.cost.half_width == Approx(paired.half_width).epsilon(1e-9));
}
