// The optimal frequencies: the closed forms (6)/(10) and (16)/(11) against the general root
// searches, and every optimum against the objective at nearby feasible points (a numeric minimum
// check).
#include "analytic/refresh/refresh_optimization.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "analytic/refresh/refresh_rates.hpp"

using namespace crawlq;

namespace {

model::RefreshModel pages(std::vector<double> rates, std::vector<double> weights,
                          model::AccessTime x) {
  return model::RefreshModel{.name = "test",
                             .change_rates = std::move(rates),
                             .weights = std::move(weights),
                             .access_time = std::move(x),
                             .policy = {}};
}

model::AccessTime hyperexponential() {
  model::RowVector alpha(2);
  alpha << 0.9, 0.1;
  model::Matrix t = model::Matrix::Zero(2, 2);
  t(0, 0) = -1.8;
  t(1, 1) = -0.02;
  return model::AccessTime(model::PhaseType(alpha, t));
}

// No feasible step x + e (e_i - e_j) lowers the objective (convexity makes this a global minimum).
template <class Objective>
void check_local_minimum(const std::vector<double>& x, Objective objective) {
  const double best = objective(x);
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = 0; j < x.size(); ++j) {
      if (i == j) continue;
      for (double step : {1e-3, 1e-5}) {
        std::vector<double> y = x;
        const double moved = std::min(step, y[j]);
        y[i] += moved;
        y[j] -= moved;
        INFO("move " << moved << " from page " << j << " to " << i);
        CHECK(objective(y) >= best - 1e-13 * std::abs(best));
      }
    }
}

}  // namespace

TEST_CASE("bound (6) and frequencies (10) equal the optimum of (7) found by root search",
          "[refresh]") {
  for (const auto& x : {model::AccessTime(model::PhaseType::exponential(1.0)), hyperexponential(),
                        model::AccessTime(model::DeterministicTime{0.7})}) {
    const std::vector<double> mu{0.02, 0.1, 0.35, 1.2, 2.0};
    std::vector<double> c;
    for (double m : mu) c.push_back(3.0 * m);
    const auto m = pages(mu, c, x);
    const auto h = analytic::access_laplace_values(m);
    const auto closed = analytic::refresh_lower_bound(m, h);
    const auto searched = analytic::refresh_lower_bound_by_search(m, h);
    REQUIRE(closed.closed_form);
    CHECK(closed.cost == Approx(searched.cost).epsilon(1e-12));
    CHECK(closed.cost ==
          Approx(analytic::bound_objective(m, h, closed.frequencies)).epsilon(1e-12));
    CHECK(closed.multiplier == Approx(searched.multiplier).epsilon(1e-9));
    for (int i = 0; i < m.pages(); ++i)
      CHECK(closed.frequencies[i] == Approx(searched.frequencies[i]).epsilon(1e-10));
    check_local_minimum(closed.frequencies, [&](const std::vector<double>& y) {
      return analytic::bound_objective(m, h, y);
    });
  }
}

TEST_CASE("the bound of (7) with general weights is the minimum and lies below every policy",
          "[refresh]") {
  const auto m = pages({0.05, 0.3, 0.8, 2.5}, {4.0, 0.5, 1.0, 0.2}, hyperexponential());
  const auto h = analytic::access_laplace_values(m);
  const auto bound = analytic::refresh_lower_bound(m, h);
  CHECK_FALSE(bound.closed_form);
  check_local_minimum(bound.frequencies, [&](const std::vector<double>& y) {
    return analytic::bound_objective(m, h, y);
  });
  // Theorem 3.3: no policy does better: random frequencies, randomized or read by a random cycle.
  std::mt19937_64 engine(3);
  std::uniform_real_distribution<double> u(0.01, 1.0);
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<double> f(4);
    double total = 0;
    for (double& x : f) total += x = u(engine);
    for (double& x : f) x /= total;
    CHECK(analytic::refresh_cost(m, analytic::randomized_obsolescence_rates(m, h, f)) >=
          bound.cost);
    std::discrete_distribution<int> pick(f.begin(), f.end());
    std::vector<int> cycle{0, 1, 2, 3};
    for (int k = 0; k < 60; ++k) cycle.push_back(pick(engine));
    CHECK(analytic::refresh_cost(m, analytic::cyclic_obsolescence_rates(m, h, cycle)) >=
          bound.cost);
  }
}

TEST_CASE("randomized optimum: (16) with proportional weights, a numeric minimum of (12)",
          "[refresh]") {
  const std::vector<double> mu{0.02, 0.1, 0.35, 1.2};
  const auto m = pages(mu, mu, hyperexponential());
  const auto h = analytic::access_laplace_values(m);
  const auto o = analytic::optimal_randomized_frequencies(m, h);
  CHECK(o.closed_form);
  CHECK(o.validity_condition_holds);
  double total_odds = 0;
  for (const auto& hi : h) total_odds += 1 / hi.h() - 1;
  // (11).
  double mu_total = 0;
  for (double x : mu) mu_total += x;
  CHECK(o.cost ==
        Approx(mu_total - total_odds / (1 + total_odds) / m.access_time.mean()).epsilon(1e-12));
  check_local_minimum(o.frequencies, [&](const std::vector<double>& y) {
    return analytic::randomized_objective(m, h, y);
  });
  CHECK(o.cost == Approx(analytic::refresh_cost(
                             m, analytic::randomized_obsolescence_rates(m, h, o.frequencies)))
                      .epsilon(1e-12));
}

TEST_CASE(
    "randomized optimum with general weights: (15) when valid, 0 for pages not worth reading otherwise",
    "[refresh]") {
  SECTION("the condition after (16) holds") {
    const auto m = pages({0.2, 0.4, 0.6}, {0.25, 0.35, 0.6},
                         model::AccessTime(model::PhaseType::exponential(1.0)));
    const auto h = analytic::access_laplace_values(m);
    const auto o = analytic::optimal_randomized_frequencies(m, h);
    CHECK(o.validity_condition_holds);
    for (double f : o.frequencies) CHECK(f > 0);
    check_local_minimum(o.frequencies, [&](const std::vector<double>& y) {
      return analytic::randomized_objective(m, h, y);
    });
  }
  SECTION("it fails: a page of tiny weight is best never read") {
    const auto m = pages({0.2, 0.4, 0.6}, {1e-6, 1.0, 2.0},
                         model::AccessTime(model::PhaseType::exponential(1.0)));
    const auto h = analytic::access_laplace_values(m);
    const auto o = analytic::optimal_randomized_frequencies(m, h);
    CHECK_FALSE(o.validity_condition_holds);
    CHECK(o.frequencies[0] == 0.0);
    CHECK(o.frequencies[1] + o.frequencies[2] == Approx(1.0));
    check_local_minimum(o.frequencies, [&](const std::vector<double>& y) {
      return analytic::randomized_objective(m, h, y);
    });
  }
}

TEST_CASE("Corollary 5.1: H(q) decreases from 2 phi^2 / 5 towards 1", "[refresh][golden]") {
  CHECK(analytic::two_phi_squared_over_five() == Approx((std::sqrt(5.0) + 3) / 5).epsilon(1e-15));
  CHECK(analytic::golden_ratio_limit_ratio(1e-4) ==
        Approx(analytic::two_phi_squared_over_five()).epsilon(1e-3));
  double previous = analytic::golden_ratio_limit_ratio(1e-3);
  for (double q = 0.01; q < 50; q *= 1.5) {
    const double h = analytic::golden_ratio_limit_ratio(q);
    CHECK(h <= previous);
    CHECK(h >= 1.0);
    previous = h;
  }
}
