// Krylov steps (analytic/transient/krylov_propagation.hpp) against dense matrix exponentials on
// birth-death chains with uneven and stiff rates: the state and its integral at each time, the
// error they estimate, their products against uniformisation's q t, the same bits on any thread
// count, and the edge cases (an invariant subspace, a start of zeros, a cap on the products).
#include "analytic/transient/krylov_propagation.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <unsupported/Eigen/MatrixFunctions>
#include <vector>

#include "tests/support/scoped_environment.hpp"

namespace crawlq::analytic {
namespace {

// A birth-death generator on n states: up-rates and down-rates that vary with the state, the
// first `stiff` states' down-rates `fast` (the stiff part uniformisation pays for).
struct BirthDeath {
  Eigen::VectorXd up, down;  // up(i): i -> i + 1, down(i): i -> i - 1
  Eigen::Index size() const { return up.size(); }

  BirthDeath(Eigen::Index n, double fast, Eigen::Index stiff) : up(n), down(n) {
    for (Eigen::Index i = 0; i < n; ++i) {
      up(i) = i + 1 < n ? 0.7 + 0.3 * std::sin(1.3 * static_cast<double>(i)) : 0.0;
      down(i) = i == 0 ? 0.0 : i < stiff ? fast : 0.4 + 0.05 * static_cast<double>(i % 7);
    }
  }
  // y = x Q, x a distribution as a column.
  void apply(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
    const Eigen::Index n = size();
    y.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      double in = 0;
      if (i > 0) in += x(i - 1) * up(i - 1);
      if (i + 1 < n) in += x(i + 1) * down(i + 1);
      y(i) = in - x(i) * (up(i) + down(i));
    }
  }
  Eigen::MatrixXd dense() const {
    const Eigen::Index n = size();
    Eigen::MatrixXd q = Eigen::MatrixXd::Zero(n, n);
    for (Eigen::Index i = 0; i < n; ++i) {
      if (i + 1 < n) q(i, i + 1) = up(i);
      if (i > 0) q(i, i - 1) = down(i);
      q(i, i) = -(up(i) + down(i));
    }
    return q;
  }
  double fastest() const { return (up + down).maxCoeff(); }
  // Detailed balance: pi(i) up(i) = pi(i + 1) down(i + 1).
  Eigen::VectorXd stationary() const {
    Eigen::VectorXd pi(size());
    pi(0) = 1;
    for (Eigen::Index i = 1; i < size(); ++i) pi(i) = pi(i - 1) * up(i - 1) / down(i);
    return pi / pi.sum();
  }
};

struct Reached {
  std::vector<Eigen::VectorXd> at, area;
};

Reached propagate(const BirthDeath& chain, const Eigen::VectorXd& start,
                  const std::vector<double>& times, const KrylovExponentialOptions& options,
                  KrylovExponentialSummary* summary = nullptr,
                  std::vector<int>* product_threads = nullptr) {
  Reached out;
  out.at.resize(times.size());
  out.area.resize(times.size());
  const KrylovExponentialSummary s = krylov_propagate(
      [&](const Eigen::VectorXd& x, Eigen::VectorXd& y, int threads) {
        if (product_threads) product_threads->push_back(threads);
        chain.apply(x, y);
      },
      start, times, options,
      [&](std::size_t i, const Eigen::VectorXd& at, const Eigen::VectorXd& area) {
        out.at[i] = at;
        out.area[i] = area;
      });
  if (summary) *summary = s;
  return out;
}

// p0 exp(Q t) and p0 times the integral of exp(Q s) over [0, t], from the exponential of
// [[Q t, I t], [0, 0]].
std::pair<Eigen::VectorXd, Eigen::VectorXd> exact(const BirthDeath& chain,
                                                  const Eigen::VectorXd& start, double t) {
  const Eigen::Index n = chain.size();
  Eigen::MatrixXd block = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  block.topLeftCorner(n, n) = chain.dense() * t;
  block.topRightCorner(n, n) = Eigen::MatrixXd::Identity(n, n) * t;
  const Eigen::MatrixXd e = block.exp();
  const Eigen::RowVectorXd p = start.transpose();
  return {(p * e.topLeftCorner(n, n)).transpose(), (p * e.topRightCorner(n, n)).transpose()};
}

}  // namespace

TEST_CASE("Krylov steps: a stiff chain's state and integral vs the matrix exponential",
          "[transient][krylov]") {
  const BirthDeath chain(60, 900.0, 6);
  Eigen::VectorXd start = Eigen::VectorXd::Zero(chain.size());
  start(40) = 0.6;
  start(3) = 0.4;
  const std::vector<double> times{0.0, 1e-3, 0.37, 0.37, 5.0, 80.0};
  for (const int dimension : {8, 30}) {
    INFO("dimension " << dimension);
    KrylovExponentialSummary summary;
    const Reached got =
        propagate(chain, start, times, {.dimension = dimension, .tolerance = 1e-10}, &summary);
    CHECK(summary.error_estimate <= 1e-10);
    // Uniformisation would take about q t products; a basis of 30 spans the stiff part.
    if (dimension == 30)
      CHECK(static_cast<double>(summary.products) < 0.05 * chain.fastest() * times.back());
    CHECK(summary.steps > 1);
    for (std::size_t i = 0; i < times.size(); ++i) {
      INFO("t = " << times[i]);
      const auto [at, area] = exact(chain, start, times[i]);
      CHECK((got.at[i] - at).lpNorm<1>() <= 1e-9);
      CHECK((got.area[i] - area).lpNorm<1>() <= 1e-9 * std::max(1.0, times[i]));
      CHECK_THAT(got.at[i].sum(), Catch::Matchers::WithinAbs(1.0, 1e-9));
      CHECK_THAT(got.area[i].sum(), Catch::Matchers::WithinAbs(times[i], 1e-9 * (1 + times[i])));
    }
  }
}

TEST_CASE("Krylov steps: a looser tolerance takes fewer products, and its error stays within it",
          "[transient][krylov]") {
  const BirthDeath chain(50, 40.0, 10);
  Eigen::VectorXd start = Eigen::VectorXd::Zero(chain.size());
  start(49) = 1;
  const std::vector<double> times{30.0};
  const auto [at, area] = exact(chain, start, times[0]);
  KrylovExponentialSummary tight, loose;
  const Reached tight_got =
      propagate(chain, start, times, {.dimension = 10, .tolerance = 1e-12}, &tight);
  const Reached loose_got =
      propagate(chain, start, times, {.dimension = 10, .tolerance = 1e-5}, &loose);
  CHECK(loose.products < tight.products);
  CHECK((tight_got.at[0] - at).lpNorm<1>() <= 1e-10);
  CHECK((loose_got.at[0] - at).lpNorm<1>() <= 1e-4);
  CHECK((loose_got.at[0] - at).lpNorm<1>() > (tight_got.at[0] - at).lpNorm<1>());
}

TEST_CASE("Krylov steps: the same bits on one thread and on two", "[transient][krylov]") {
  // Longer than a block of the sums (2^15 entries), so that the threads share them.
  const BirthDeath chain(100'000, 30.0, 50);
  Eigen::VectorXd start = Eigen::VectorXd::Zero(chain.size());
  start.segment(20'000, 50'000).setConstant(1.0 / 50'000);
  const std::vector<double> times{0.5, 2.0};
  const Reached one = propagate(chain, start, times, {.dimension = 12, .threads = 1});
  const Reached two = propagate(chain, start, times, {.dimension = 12, .threads = 2});
  for (std::size_t i = 0; i < times.size(); ++i) {
    CHECK(one.at[i] == two.at[i]);
    CHECK(one.area[i] == two.area[i]);
  }
  // Threads that change from one product to the next (fewer while other programs hold cores): each
  // product runs on its step's, and the bits stay the same.
  const test_support::ScopedEnvironment alternate("CRAWLQ_THREAD_ADAPTATION", "alternate");
  std::vector<int> product_threads;
  const Reached switching =
      propagate(chain, start, times, {.dimension = 12, .threads = 2}, nullptr, &product_threads);
  CHECK(std::count(product_threads.begin(), product_threads.end(), 1) >= 2);
  CHECK(std::count(product_threads.begin(), product_threads.end(), 2) >= 2);
  for (std::size_t i = 0; i < times.size(); ++i) {
    CHECK(one.at[i] == switching.at[i]);
    CHECK(one.area[i] == switching.area[i]);
  }
}

TEST_CASE("Krylov steps: an invariant subspace, a start of zeros and a cap on the products",
          "[transient][krylov]") {
  const BirthDeath chain(30, 5.0, 4);
  // The stationary law spans a subspace Q maps to 0: the first product ends the basis, and any
  // step is exact.
  const Eigen::VectorXd stationary = chain.stationary();
  KrylovExponentialSummary summary;
  const Reached still = propagate(chain, stationary, {2.0, 100.0}, {.tolerance = 1e-10}, &summary);
  CHECK(summary.products == 1);
  CHECK((still.at[1] - stationary).lpNorm<1>() <= 1e-12);
  CHECK((still.area[1] - 100 * stationary).lpNorm<1>() <= 1e-10);

  const Reached nothing = propagate(chain, Eigen::VectorXd::Zero(chain.size()), {1.0, 3.0}, {});
  CHECK(nothing.at[1].isZero(0));
  CHECK(nothing.area[1].isZero(0));

  Eigen::VectorXd start = Eigen::VectorXd::Zero(chain.size());
  start(29) = 1;
  try {
    propagate(chain, start, {1e5}, {.dimension = 6, .most_products = 20});
    FAIL("a cap of 20 products did not stop a horizon of 1e5");
  } catch (const KrylovWorkExceeded& exceeded) {
    CHECK(exceeded.reached >= 0);
    CHECK(exceeded.reached < 1e5);
  }
}

TEST_CASE(
    "Krylov steps: a horizon of 10^8 ends at the fixed point, its mass kept, its bound honest",
    "[transient][krylov]") {
  // Down faster than up everywhere: the chain forgets its start within some tens of time units.
  const BirthDeath chain(40, 3.0, 40);
  Eigen::VectorXd start = Eigen::VectorXd::Zero(chain.size());
  start(39) = 1;
  const Eigen::VectorXd stationary = chain.stationary();
  KrylovExponentialSummary summary;
  const Reached got =
      propagate(chain, start, {10.0, 1e8},
                {.tolerance = 1e-12, .norm = 2 * chain.fastest(), .conserves_sum = true}, &summary);
  // Once x A is rounding's noise the steps stop (without the fixed point's test they went on,
  // each losing some 1e-18 q t of the mass).
  CHECK(summary.products < 2000);
  CHECK_THAT(got.at[1].sum(), Catch::Matchers::WithinAbs(1.0, 1e-13));
  const double error = (got.at[1] - stationary).lpNorm<1>();
  CHECK(error <= 1e-12);
  CHECK(error <= summary.error_estimate);
  CHECK_THAT(got.area[1].sum(), Catch::Matchers::WithinRel(1e8, 1e-12));
}

}  // namespace crawlq::analytic
