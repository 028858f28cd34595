// Page refresh (Coffman, Liu, Weber 1998): each formula against a computation that does not use it.
// Lemma 3.1 against a direct numerical integral of E[(S - R)^+]; Lemma 4.1 against the cyclic
// formula (3) averaged over a long random sequence; h against closed forms; the golden-ratio cycle
// against the paper's example.
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "analytic/refresh/refresh_rates.hpp"
#include "model/golden_ratio_policy.hpp"

using namespace crawlq;

namespace {

model::RefreshModel pages_with(std::vector<double> rates, model::AccessTime x) {
  std::vector<double> weights = rates;
  return model::RefreshModel{.name = "test",
                             .change_rates = std::move(rates),
                             .weights = std::move(weights),
                             .access_time = std::move(x),
                             .policy = {}};
}

// E[(S - R)^+] = int_0^inf int_0^s (s - r) mu e^{-mu r} dr g(s) ds, both integrals numerical.
template <class Density>
double stale_by_integration(Density g, double mu, double upper) {
  using boost::math::quadrature::gauss_kronrod;
  const auto inner = [mu](double s) {
    return gauss_kronrod<double, 31>::integrate(
        [&](double r) { return (s - r) * mu * std::exp(-mu * r); }, 0.0, s, 5, 1e-12);
  };
  return gauss_kronrod<double, 61>::integrate([&](double s) { return inner(s) * g(s); }, 0.0, upper,
                                              10, 1e-11);
}

}  // namespace

TEST_CASE("h = E exp(-mu X) against closed forms", "[refresh]") {
  const model::AccessTime exponential(model::PhaseType::exponential(2.0));
  CHECK(exponential.laplace_transform(0.5) == Approx(2.0 / 2.5).epsilon(1e-14));
  const model::AccessTime erlang(model::PhaseType::erlang(3, 6.0));
  CHECK(erlang.laplace_transform(1.0) == Approx(std::pow(6.0 / 7.0, 3)).epsilon(1e-14));
  const model::AccessTime constant(model::DeterministicTime{0.5});
  CHECK(constant.laplace_transform(0.3) == Approx(std::exp(-0.15)).epsilon(1e-15));
  CHECK(erlang.mean() == Approx(0.5));
}

TEST_CASE("Lemma 3.1 against a direct numerical integral", "[refresh]") {
  const double mu = 0.7;
  SECTION("exponential X: S is Erlang(d) of rate a") {
    const double a = 1.5;
    const auto h = model::AccessTime(model::PhaseType::exponential(a)).laplace_value(mu);
    for (long d : {1L, 2L, 5L}) {
      INFO("d = " << d);
      const auto density = [&](double s) {
        return boost::math::gamma_p_derivative(static_cast<double>(d), a * s) * a;
      };
      const double integral = stale_by_integration(density, mu, 60.0 + 10.0 * d);
      CHECK(analytic::expected_stale_time(h, 1.0 / a, d) == Approx(integral).epsilon(1e-9));
    }
  }
  SECTION("deterministic X: S = d x") {
    const double x = 0.8;
    const auto h = model::AccessTime(model::DeterministicTime{x}).laplace_value(mu);
    for (long d : {1L, 3L, 7L}) {
      INFO("d = " << d);
      const double s = d * x;
      const double integral = boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
          [&](double r) { return (s - r) * mu * std::exp(-mu * r); }, 0.0, s, 5, 1e-13);
      CHECK(analytic::expected_stale_time(h, x, d) == Approx(integral).epsilon(1e-11));
    }
  }
}

TEST_CASE("Lemma 4.1 against the cyclic formula on a long random sequence", "[refresh]") {
  for (const auto& x : {model::AccessTime(model::PhaseType::exponential(1.0)),
                        model::AccessTime(model::DeterministicTime{1.0})}) {
    const auto m = pages_with({0.05, 0.2, 0.6, 1.5}, x);
    const std::vector<double> f{0.4, 0.3, 0.2, 0.1};
    const auto h = analytic::access_laplace_values(m);
    std::mt19937_64 engine(42);
    std::discrete_distribution<int> pick(f.begin(), f.end());
    std::vector<int> sequence(2'000'000);
    for (int& page : sequence) page = pick(engine);
    const auto averaged = analytic::cyclic_obsolescence_rates(m, h, sequence);
    const auto exact = analytic::randomized_obsolescence_rates(m, h, f);
    for (int i = 0; i < m.pages(); ++i) {
      INFO("page " << i);
      CHECK(averaged[i] == Approx(exact[i]).epsilon(0.005));
    }
  }
}

TEST_CASE("the cyclic formula on a round robin equals the bound of Theorem 3.3", "[refresh]") {
  // Equal frequencies read cyclically are perfectly spaced: r_i = 1 - (1 - h_i^N) / (N mu_i E[X]).
  const auto m = pages_with({0.1, 0.3, 0.9}, model::AccessTime(model::PhaseType::erlang(2, 4.0)));
  const auto h = analytic::access_laplace_values(m);
  const auto r = analytic::cyclic_obsolescence_rates(m, h, {0, 1, 2});
  for (int i = 0; i < 3; ++i)
    CHECK(
        r[i] ==
        Approx(1.0 - (1.0 - std::pow(h[i].h(), 3)) / (3 * m.change_rates[i] * 0.5)).epsilon(1e-13));
  CHECK(analytic::cycle_frequencies({0, 1, 1, 2}, 3) == std::vector<double>{0.25, 0.5, 0.25});
}

TEST_CASE("golden ratio: the paper's example cycle, up to rotation", "[refresh][golden]") {
  const auto counts = model::golden_ratio_counts({2.0 / 13, 3.0 / 13, 3.0 / 13, 5.0 / 13}, 13);
  CHECK(counts == std::vector<long>{2, 3, 3, 5});
  const auto cycle = model::golden_ratio_cycle(counts);
  const std::vector<int> printed{4, 2, 4, 1, 3, 4, 2, 4, 1, 3, 4, 2, 3};  // 1-based, as printed
  bool found = false;
  for (std::size_t shift = 0; shift < printed.size(); ++shift) {
    bool same = true;
    for (std::size_t s = 0; s < printed.size(); ++s)
      same = same && cycle[(s + shift) % 13] + 1 == printed[s];
    found = found || same;
  }
  CHECK(found);
}

TEST_CASE("golden ratio: counts round each f_i F_k and read every page", "[refresh][golden]") {
  std::mt19937_64 engine(7);
  std::uniform_real_distribution<double> u(0.001, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> f(37);
    double total = 0;
    for (double& x : f) total += x = u(engine);
    for (double& x : f) x /= total;
    const long cycle = model::default_golden_ratio_cycle(37);
    CHECK(model::is_fibonacci(cycle));
    const auto counts = model::golden_ratio_counts(f, cycle);
    long sum = 0;
    for (std::size_t i = 0; i < f.size(); ++i) {
      CHECK(counts[i] >= std::floor(f[i] * cycle));
      CHECK(counts[i] <= std::ceil(f[i] * cycle));
      CHECK(counts[i] >= 1);
      sum += counts[i];
    }
    CHECK(sum == cycle);
  }
  CHECK_THROWS_AS(model::golden_ratio_counts({0.5, 0.5, 0.0}, 2), std::invalid_argument);
}
