#include "model/bmap.hpp"

#include <catch2/catch.hpp>

#include "model/arrival_modes.hpp"

using crawlq::model::Bmap;
using crawlq::model::Matrix;

namespace {
Matrix m2(double a, double b, double c, double d) {
  Matrix m(2, 2);
  m << a, b, c, d;
  return m;
}
}  // namespace

TEST_CASE("a Poisson process of batches has the textbook descriptors", "[bmap]") {
  // Batches of 1 or 2 pages, rate 3 each: lambda = 9, lambda_g = 6, variance 1/36, no correlation.
  const Bmap b({Matrix::Constant(1, 1, -6), Matrix::Constant(1, 1, 3), Matrix::Constant(1, 1, 3)});
  CHECK(b.fundamental_rate() == Approx(9));
  CHECK(b.group_rate() == Approx(6));
  CHECK(b.group_interval_variance() == Approx(1.0 / 36));
  CHECK(b.group_interval_lag1_correlation() == Approx(0).margin(1e-12));
}

TEST_CASE("mode 1 of the paper's example has the printed rates", "[bmap]") {
  // Section 7 prints lambda^(1) = 1.28, lambda_g^(1) = 0.853, c_cor^(1) = -0.218; within one unit
  // of the last printed digit, since the paper truncates some values (0.8537 is printed 0.853).
  const Bmap b({m2(-10, 2, 0, -0.5), m2(0.05, 3, 0.29, 0.005), m2(0.05, 4.9, 0.2, 0.005)});
  CHECK(b.fundamental_rate() == Approx(1.28).margin(0.01));
  CHECK(b.group_rate() == Approx(0.853).margin(0.001));
  CHECK(b.group_interval_lag1_correlation() == Approx(-0.218).margin(0.001));
}

TEST_CASE("a BMAP whose rows do not cancel is refused with the row", "[bmap]") {
  CHECK_THROWS_WITH(Bmap({m2(-10, 2, 0, -0.5), m2(0.05, 3, 0.29, 0.005), m2(0.05, 4.9, 0.2, 0.025)},
                         "arrivals.modes[0].D"),
                    Catch::Contains("arrivals.modes[0].D row 1") && Catch::Contains("sum 0.02"));
  CHECK_THROWS_WITH(
      Bmap({m2(-5.65, 1.1, 0, -0.85), m2(-0.01, 2.5, 0.25, 0)}, "arrivals.modes[1].D"),
      Catch::Contains("arrivals.modes[1].D[1] row 0") && Catch::Contains("negative rate -0.01"));
}

TEST_CASE("independent robots combine by Kronecker sums", "[arrival_modes]") {
  // Two Poisson robots of rates 1 and 2: mode 1 brings rate 1, mode 2 rate 3; phases 1x1.
  const Bmap a({Matrix::Constant(1, 1, -1), Matrix::Constant(1, 1, 1)});
  const Bmap b({Matrix::Constant(1, 1, -2), Matrix::Constant(1, 1, 2)});
  const auto modes = crawlq::model::independent_robots({a, b});
  REQUIRE(modes.modes() == 2);
  CHECK(modes.mode(1).fundamental_rate() == Approx(1));
  CHECK(modes.mode(2).fundamental_rate() == Approx(3));
}

TEST_CASE("an inactive robot's phase keeps moving without arrivals", "[arrival_modes]") {
  // Robot 2 is an interrupted Poisson process (on <-> off): its phase runs on D(1) when inactive.
  const Bmap a({Matrix::Constant(1, 1, -1), Matrix::Constant(1, 1, 1)});
  const Bmap onoff({m2(-5, 1, 2, -2), m2(4, 0, 0, 0)});
  const auto modes = crawlq::model::independent_robots({a, onoff});
  REQUIRE(modes.phases() == 2);
  // Mode 1: D0 = D0(a) (+) D(1)(onoff); D1 = D1(a) (x) I.
  CHECK(modes.mode(1).d(0).isApprox(m2(-1 - 1, 1, 2, -1 - 2)));
  CHECK(modes.mode(1).d(1).isApprox(m2(1, 0, 0, 1)));
  // Mode 2: D1 = D1(a) (x) I + I (x) D1(onoff); on-phase stationary 2/3 -> rate 1 + 4*2/3.
  CHECK(modes.mode(2).fundamental_rate() == Approx(1 + 8.0 / 3));
}

TEST_CASE("thinning, marking and scaling build the paper's interpretations 2 and 3",
          "[arrival_modes]") {
  const Bmap base({m2(-3, 1, 1, -2), m2(1, 1, 0, 1)});
  const auto thin = crawlq::model::thinned(base, {0.25, 1.0});
  CHECK(thin.mode(1).fundamental_rate() == Approx(0.25 * base.fundamental_rate()));
  CHECK(thin.mode(2).fundamental_rate() == Approx(base.fundamental_rate()));
  const auto scaled = crawlq::model::scaled(base, {1.0, 3.0});
  CHECK(scaled.mode(2).fundamental_rate() == Approx(3 * base.fundamental_rate()));
  // Marked: robot 1 brings singles, robot 2 pairs; mode 1 turns robot 2's pairs into phase moves.
  const Matrix d0 = m2(-3, 1, 0, -1);
  const auto marked =
      crawlq::model::marked(d0, {{m2(1, 0, 0, 0.5)}, {Matrix::Zero(2, 2), m2(0, 1, 0.5, 0)}});
  CHECK(marked.mode(1).d(0).isApprox(d0 + m2(0, 1, 0.5, 0)));
  CHECK(marked.mode(1).max_batch() == 2);
  CHECK(marked.mode(1).d(2).isZero());
  CHECK(marked.mode(2).d(2).isApprox(m2(0, 1, 0.5, 0)));
}
