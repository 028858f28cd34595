// Page refresh at the ends of the scale (Coffman, Liu, Weber 1998). h = E exp(-mu X) underflows to
// 0 from mu X ~ 745 on, where a page is stale almost surely after each read and Lemma 4.1 tends to
// r = 1 - f / (mu E[X]); 1 - h rounds to 0 below mu X ~ 1e-16, where r -> 0 as mu E[S^2] / (2 E[X])
// per interaccess time S (E[Z] = E[(S - R)^+] ~ mu E[S^2] / 2). Each value is checked against a
// closed form, that limit, or the paper's own formula where h is still an ordinary number.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "analytic/refresh/refresh_analysis.hpp"
#include "analytic/refresh/refresh_optimization.hpp"
#include "analytic/refresh/refresh_rates.hpp"

using namespace crawlq;

namespace {

model::RefreshModel pages(std::vector<double> rates, std::vector<double> weights,
                          model::AccessTime x, model::RefreshPolicySpec policy = {}) {
  return model::RefreshModel{.name = "limits",
                             .change_rates = std::move(rates),
                             .weights = std::move(weights),
                             .access_time = std::move(x),
                             .policy = std::move(policy)};
}

model::AccessTime deterministic(double x) { return model::AccessTime(model::DeterministicTime{x}); }

model::AccessTime hyperexponential() {
  model::Matrix t = model::Matrix::Zero(2, 2);
  t(0, 0) = -1.8;
  t(1, 1) = -0.02;
  return model::AccessTime(model::PhaseType((model::RowVector(2) << 0.9, 0.1).finished(), t));
}

// 1 - ln(1 + q) / q, the delta of an exponential X with q = mu E[X]: its series below 1e-3.
double exponential_delta(double q) {
  if (q >= 1e-3) return 1 - std::log1p(q) / q;
  double sum = 0, power = q;
  for (int k = 2; k < 12; ++k, power *= -q) sum += power / k;  // q/2 - q^2/3 + q^3/4 - ...
  return sum;
}

// No feasible step x + e (e_i - e_j) lowers the objective (convex: a global minimum).
template <class Objective>
void check_minimum(const std::vector<double>& x, Objective objective) {
  const double best = objective(x);
  REQUIRE(std::isfinite(best));
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = 0; j < x.size(); ++j)
      for (double step : {1e-3, 1e-6}) {
        if (i == j) continue;
        std::vector<double> y = x;
        const double moved = std::min(step, y[j]);
        y[i] += moved;
        y[j] -= moved;
        INFO("move " << moved << " from page " << j << " to " << i);
        CHECK(objective(y) >= best - 1e-13 * std::abs(best));
      }
}

void check_frequencies(const std::vector<double>& f) {
  double sum = 0;
  for (double x : f) {
    CHECK(std::isfinite(x));
    CHECK(x >= 0);
    sum += x;
  }
  CHECK(sum == Approx(1.0).epsilon(1e-12));
}

}  // namespace

TEST_CASE("h as l = -ln h and delta against closed forms from mu E[X] = 1e-300 to 1e300",
          "[refresh][limits]") {
  for (double q : {1e-300, 1e-200, 1e-20, 1e-8, 1e-3, 0.3, 5.0, 1e3, 1e100, 1e300}) {
    INFO("mu E[X] = " << q);
    // Exponential X of mean 2: h = 1 / (1 + q), l = ln(1 + q).
    const auto e = model::AccessTime(model::PhaseType::exponential(0.5)).laplace_value(q / 2);
    CHECK(e.ell == Approx(std::log1p(q)).epsilon(1e-13));
    CHECK(e.log_ell == Approx(std::log(std::log1p(q))).epsilon(1e-13).margin(1e-13));
    CHECK(e.delta == Approx(exponential_delta(q)).epsilon(1e-12));
    CHECK(e.kappa == Approx(std::log1p(q) / q).epsilon(1e-12));
    // Erlang(3) of mean 3: h = (1 + q/3)^-3 is 1e-900 at q = 1e300 (computed on logarithms).
    const auto k = model::AccessTime(model::PhaseType::erlang(3, 1.0)).laplace_value(q / 3);
    CHECK(k.ell == Approx(3 * std::log1p(q / 3)).epsilon(1e-13));
    CHECK(k.kappa == Approx(3 * std::log1p(q / 3) / q).epsilon(1e-12));
    // A constant: l = q, delta = 0.
    const auto c = deterministic(4.0).laplace_value(q / 4);
    CHECK(c.ell == Approx(q).epsilon(1e-15));
    CHECK(c.delta == 0.0);
    CHECK(c.kappa == 1.0);
  }
}

TEST_CASE("h below 1e-250 of a phase-type law with fill-in against a long double solve",
          "[refresh][limits]") {
  // Phase 0 has no exit: X leaves through 0 -> 1 -> exit or 0 -> 2 -> 1 -> exit, so h ~ 2 / mu^2
  // and the elimination fills in the entry (2, 1) path. Long double reaches down to 1e-4900.
  model::Matrix t(3, 3);
  t << -3, 2, 1, 0, -3, 2, 0, 1.5, -2;
  const model::PhaseType ph((model::RowVector(3) << 1, 0, 0).finished(), t);
  const Eigen::Matrix<long double, 3, 3> tl = t.cast<long double>();
  const Eigen::Matrix<long double, 3, 1> exits = -(tl * Eigen::Matrix<long double, 3, 1>::Ones());
  for (double mu : {1e120, 1e150, 1e200, 1e300}) {
    INFO("mu = " << mu);
    const Eigen::Matrix<long double, 3, 3> shifted =
        static_cast<long double>(mu) * Eigen::Matrix<long double, 3, 3>::Identity() - tl;
    const long double h = shifted.partialPivLu().solve(exits)(0);
    REQUIRE(h > 0);
    CHECK(model::AccessTime(ph).laplace_value(mu).ell ==
          Approx(static_cast<double>(-std::log(h))).epsilon(1e-13));
  }
}

TEST_CASE(
    "r_i where h underflows: the limit 1 - f / (mu E[X]), and the paper's form where h is still normal",
    "[refresh][limits]") {
  const double f = 0.3;
  for (double q : {30.0, 200.0, 700.0}) {  // h = e^{-q} still a double: the paper's formulas apply
    INFO("mu E[X] = " << q);
    const double h = std::exp(-q);
    const auto v = deterministic(1.0).laplace_value(q);
    CHECK(analytic::randomized_obsolescence_rate(v, f) ==
          Approx(1 - f / q + f / q * f * h / (1 - h + f * h)).epsilon(1e-14));
    // Lemma 3.1 over d = 3 reads.
    CHECK(analytic::expected_stale_time(v, 1.0, 3) ==
          Approx(3 - (1 - std::pow(h, 3)) / q).epsilon(1e-14));
  }
  for (double q : {800.0, 1e5, 1e200, 1e300}) {  // h = 0 in doubles
    INFO("mu E[X] = " << q);
    const auto v = deterministic(1.0).laplace_value(q);
    CHECK(v.h() == 0.0);
    CHECK(analytic::randomized_obsolescence_rate(v, f) == Approx(1 - f / q).epsilon(1e-15));
    CHECK(analytic::evenly_spaced_obsolescence_rate(v, f) == Approx(1 - f / q).epsilon(1e-15));
    CHECK(analytic::expected_stale_time(v, 1.0, 3) == Approx(3 - 1 / q).epsilon(1e-15));
  }
}

TEST_CASE("r_i as mu E[X] -> 0: first-order terms, no cancellation", "[refresh][limits]") {
  for (double q : {1e-300, 1e-200, 1e-100, 1e-30}) {
    INFO("mu E[X] = " << q);
    // Randomized, constant X: S = d x with d geometric(f), E[d^2] = (2 - f) / f^2, so
    // r = f mu E[S^2] / (2 E[X]) = q (2 - f) / (2 f).
    for (double f : {1.0, 0.4, 1e-3}) {
      const auto v = deterministic(1.0).laplace_value(q);
      CHECK(analytic::randomized_obsolescence_rate(v, f) ==
            Approx(q * (2 - f) / (2 * f)).epsilon(1e-12));
    }
    // Randomized, exponential X of mean m: r = mu m / (f + mu m) exactly.
    const auto e = model::AccessTime(model::PhaseType::exponential(1.0)).laplace_value(q);
    CHECK(analytic::randomized_obsolescence_rate(e, 0.25) == Approx(q / (0.25 + q)).epsilon(1e-12));
    // A cycle of one page, exponential X: r = q / (1 + q).
    const auto one = pages({q}, {1.0}, model::AccessTime(model::PhaseType::exponential(1.0)));
    CHECK(analytic::cyclic_obsolescence_rates(one, analytic::access_laplace_values(one), {0})[0] ==
          Approx(q / (1 + q)).epsilon(1e-12));
    // A cycle (0, 1, 1) of a hyperexponential X: page 0 read every 3 reads, so
    // r_0 = mu E[S^2] / (2 E[S]) with S the sum of 3 reads.
    const auto x = hyperexponential();
    const auto& ph = std::get<model::PhaseType>(x.law());
    const double mean = ph.mean(), second = ph.moment(2), mu = q / mean;
    const auto m = pages({mu, 1.0}, {1.0, 1.0}, x);
    const double expected = mu * (3 * second + 6 * mean * mean) / (2 * 3 * mean);
    CHECK(analytic::cyclic_obsolescence_rates(m, analytic::access_laplace_values(m),
                                              {0, 1, 1})[0] == Approx(expected).epsilon(1e-10));
  }
}

TEST_CASE("the optima with a page whose h underflows: finite, summing to 1, minima",
          "[refresh][limits]") {
  SECTION("c_i = mu_i: (10), (6) and (16) in closed form") {
    const auto m = pages({0.2, 1000, 0.5}, {0.2, 1000, 0.5}, deterministic(1.0));
    const auto h = analytic::access_laplace_values(m);
    const auto bound = analytic::refresh_lower_bound(m, h);
    REQUIRE(bound.closed_form);
    for (int i = 0; i < 3; ++i)
      CHECK(bound.frequencies[i] == Approx(m.change_rates[i] / 1000.7).epsilon(1e-14));
    CHECK(bound.cost == Approx(1000.7 - 1 + std::exp(-1000.7)).epsilon(1e-14));  // (6)
    const auto randomized = analytic::optimal_randomized_frequencies(m, h);
    check_frequencies(randomized.frequencies);
    CHECK(randomized.frequencies[1] == 1.0);  // proportional to 1/h_i - 1 = e^{1000} - 1
    check_minimum(randomized.frequencies,
                  [&](const auto& y) { return analytic::randomized_objective(m, h, y); });
  }
  SECTION("general weights: the root searches") {
    for (const std::vector<double>& c :
         {std::vector<double>{1, 2, 3}, std::vector<double>{0.2, 1e6, 0.5},
          std::vector<double>{5, 1e-3, 1}}) {
      INFO("weights " << c[0] << ", " << c[1] << ", " << c[2]);
      const auto m = pages({0.2, 1000, 0.5}, c, deterministic(1.0));
      const auto h = analytic::access_laplace_values(m);
      const auto bound = analytic::refresh_lower_bound(m, h);
      check_frequencies(bound.frequencies);
      check_minimum(bound.frequencies,
                    [&](const auto& y) { return analytic::bound_objective(m, h, y); });
      const auto randomized = analytic::optimal_randomized_frequencies(m, h);
      check_frequencies(randomized.frequencies);
      check_minimum(randomized.frequencies,
                    [&](const auto& y) { return analytic::randomized_objective(m, h, y); });
      CHECK(randomized.cost >= bound.cost * (1 - 1e-14));
    }
  }
  SECTION("a page changing 1e-200 times per read") {
    const auto m = pages({1e-200, 0.5}, {1e-200, 0.5}, deterministic(1.0));
    const auto h = analytic::access_laplace_values(m);
    const auto randomized = analytic::optimal_randomized_frequencies(m, h);
    // (16): f_0 / f_1 = (e^{1e-200} - 1) / (e^{0.5} - 1).
    CHECK(randomized.frequencies[0] == Approx(1e-200 / (std::expm1(0.5) + 1e-200)).epsilon(1e-13));
    const auto r = analytic::randomized_obsolescence_rates(m, h, randomized.frequencies);
    for (double x : r) CHECK(std::isfinite(x));
    const auto bound = analytic::refresh_lower_bound(m, h);
    CHECK(bound.cost == Approx(0.5 + 1e-200 - 1 + std::exp(-0.5)).epsilon(1e-14));
  }
}

TEST_CASE("Corollary 5.1's H(q) from q = 1e-300 to 1e300", "[refresh][limits][golden]") {
  // (q - 1 + e^{-q}) is 0 in doubles below q ~ 1e-8: the paper's quotient was 0/0 there.
  CHECK(analytic::golden_ratio_limit_ratio(1e-300) ==
        Approx(analytic::two_phi_squared_over_five()).epsilon(1e-14));
  CHECK(analytic::golden_ratio_limit_ratio(1e-10) ==
        Approx(analytic::two_phi_squared_over_five()).epsilon(1e-9));
  CHECK(analytic::golden_ratio_limit_ratio(1e300) == Approx(1.0).epsilon(1e-14));
  double previous = analytic::two_phi_squared_over_five();
  for (double q = 1e-300; q < 1e300; q *= 1e10) {
    const double h = analytic::golden_ratio_limit_ratio(q);
    CHECK(h <= previous * (1 + 1e-15));
    CHECK(h >= 1.0);
    previous = h;
  }
}

TEST_CASE("golden ratio with every page's h underflowing: (3) at its limit",
          "[refresh][limits][golden]") {
  // Before, the frequencies (10) were -inf / -inf and building the cycle threw (crawlq exited 1).
  model::RefreshPolicySpec policy;
  policy.kind = model::RefreshPolicyKind::kGoldenRatio;
  policy.cycle = 13;
  const auto m = pages({800, 1000, 900}, {800, 1000, 900}, deterministic(1.0), policy);
  const auto a = analytic::analyze_refresh(m);
  REQUIRE(a.cycle.size() == 13);
  for (int i = 0; i < 3; ++i) {
    INFO("page " << i);
    CHECK(a.frequencies[i] == Approx(m.change_rates[i] / 2700).epsilon(1e-14));  // (10): l_i = mu_i
    // h^d = 0: E[Z] = d - 1 / mu for every read, so r_i = 1 - M_i / (13 mu_i).
    CHECK(a.obsolescence_rates[i] ==
          Approx(1 - a.cycle_counts[i] / (13 * m.change_rates[i])).epsilon(1e-15));
  }
  CHECK(std::isfinite(a.cost_over_lower_bound));
  CHECK(std::isfinite(a.golden_ratio_limit));
}

TEST_CASE("golden ratio: a cycle too short to read a page of tiny frequency",
          "[refresh][limits][golden]") {
  // (10) gives the page of h ~ 0 a frequency 0.9993; the others' f_i F_k round to 0 for F_k = 13.
  // Before, the frequencies were NaN and the counts' loop ran for ever.
  model::RefreshPolicySpec policy;
  policy.kind = model::RefreshPolicyKind::kGoldenRatio;
  policy.cycle = 13;
  auto m = pages({0.2, 1000, 0.5}, {0.2, 1000, 0.5}, deterministic(1.0), policy);
  try {
    analytic::analyze_refresh(m);
    FAIL("a cycle of 13 reads cannot read all three pages");
  } catch (const std::invalid_argument& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("13: ") && Catch::Contains("1597"));
  }
  m.policy.cycle = 0;  // the default: the shortest from 144 on that reads every page
  const auto a = analytic::analyze_refresh(m);
  CHECK(a.cycle.size() == 1597);
  for (long count : a.cycle_counts) CHECK(count >= 1);
  for (double r : a.obsolescence_rates) CHECK(std::isfinite(r));
}

TEST_CASE("golden ratio: a cycle larger than memory is refused before it is built",
          "[refresh][limits][golden]") {
  model::RefreshPolicySpec policy;
  policy.kind = model::RefreshPolicyKind::kGoldenRatio;
  policy.cycle = 701408733;
  const auto m = pages({0.1, 0.2, 0.3}, {0.1, 0.2, 0.3}, deterministic(1.0), policy);
  const double available = 1e9;
  long largest = 0;
  for (long f : model::fibonacci_numbers())
    if (analytic::refresh_analysis_bytes(m, f) <= available) largest = f;
  REQUIRE(largest > 0);
  try {
    analytic::analyze_refresh(m, available);
    FAIL("701408733 reads do not fit in 1e9 bytes");
  } catch (const std::invalid_argument& e) {
    CHECK_THAT(e.what(),
               Catch::StartsWith("701408733: ") && Catch::Contains(std::to_string(largest)));
  }
  CHECK(model::is_fibonacci(2880067194370816120L));  // F_90, beyond a double's exact integers
  CHECK(model::fibonacci_numbers().back() == 7540113804746346429L);
}
