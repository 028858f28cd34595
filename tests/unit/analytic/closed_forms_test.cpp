// The exact engine against queues solved on paper: M/M/1/K, M/M/1/K with exponential impatience,
// a threshold-controlled birth-death chain and the Erlang loss system M/E_3/1/1.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/stationary/solver_registry.hpp"
#include "tests/support/birth_death.hpp"

using namespace crawlq;
using analytic::Method;
using analytic::PageFate;

namespace {

using test_support::birth_death;
using test_support::birth_death_levels;
using test_support::poisson;

double erlang_cdf(int stages, double rate, double x) {
  double term = std::exp(-rate * x), sum = 0;
  for (int n = 0; n < stages; ++n) {
    sum += term;
    term *= rate * x / (n + 1);
  }
  return 1 - sum;
}

// Every registered solver: a new one meets the closed forms the day it is registered.
std::vector<Method> all_methods() {
  std::vector<Method> methods;
  for (const auto& solver : analytic::registered_solvers()) methods.push_back(solver.method);
  return methods;
}

}  // namespace

TEST_CASE("M/M/1/K: levels, loss, sojourn law", "[closed_form]") {
  const double lambda = 1.3, mu = 2.0;
  const int k = 4;
  const model::Model m = birth_death({lambda}, mu, k);
  const auto p = birth_death_levels(std::vector<double>(k + 1, lambda), mu, 0);
  for (Method method : all_methods()) {
    INFO(analytic::method_name(method));
    const analytic::PolicyEvaluator evaluator(m, method);
    const auto e = evaluator.evaluate(model::Policy::constant(1, 1, k));
    REQUIRE(e.stationary.summary.status == analytic::SolverStatus::kConverged);
    CHECK(e.stationary.summary.residual < 1e-12);
    for (int i = 0; i <= k; ++i)
      CHECK(e.measures.level_probabilities[i] == Approx(p[i]).epsilon(1e-12));
    CHECK(e.measures.lambda == Approx(lambda).epsilon(1e-12));
    CHECK(e.measures.p_loss == Approx(p[k]).epsilon(1e-12));
    CHECK(e.measures.p_served == Approx(1 - p[k]).epsilon(1e-12));
    CHECK(e.measures.p_obsolete == Approx(0).margin(1e-15));
    CHECK(e.measures.p_starvation == Approx(p[0]).epsilon(1e-12));
    // Little: L = lambda (1 - P_loss) W.
    double l = 0;
    for (int i = 0; i <= k; ++i) l += i * p[i];
    CHECK(e.measures.mean_sojourn == Approx(l / (lambda * (1 - p[k]))).epsilon(1e-12));
    CHECK(e.measures.mean_sojourn_served == Approx(e.measures.mean_sojourn).epsilon(1e-12));
    // An accepted page that finds i pages stays Erlang(i+1, mu) (PASTA).
    const auto sojourn = evaluator.sojourn_times(e);
    for (double x : {0.1, 0.7, 2.0, 5.0}) {
      double expected = 0;
      for (int i = 0; i < k; ++i) expected += p[i] / (1 - p[k]) * erlang_cdf(i + 1, mu, x);
      CHECK(sojourn.cdf(PageFate::kServed, x) == Approx(expected).epsilon(1e-10));
    }
    for (double u : {0.3, 2.0}) {
      double expected = 0;
      for (int i = 0; i < k; ++i) expected += p[i] / (1 - p[k]) * std::pow(mu / (mu + u), i + 1);
      CHECK(sojourn.transform(PageFate::kServed, u) == Approx(expected).epsilon(1e-12));
    }
    const double median = sojourn.quantile(PageFate::kServed, 0.5);
    CHECK(sojourn.cdf(PageFate::kServed, median) == Approx(0.5).epsilon(1e-8));
  }
}

TEST_CASE("M/M/1/K with exponential impatience", "[closed_form]") {
  const double lambda = 3.0, mu = 2.0, theta = 0.7;
  const int k = 5;
  const model::Model m = birth_death({lambda}, mu, k, theta);
  const auto p = birth_death_levels(std::vector<double>(k + 1, lambda), mu, theta);
  double expiry = 0, served = 0;
  for (int i = 1; i <= k; ++i) {
    expiry += p[i] * (i - 1) * theta;
    served += p[i] * mu;
  }
  for (Method method : all_methods()) {
    INFO(analytic::method_name(method));
    const analytic::PolicyEvaluator evaluator(m, method);
    const auto e = evaluator.evaluate(model::Policy::constant(1, 1, k));
    for (int i = 0; i <= k; ++i)
      CHECK(e.measures.level_probabilities[i] == Approx(p[i]).epsilon(1e-12));
    CHECK(e.measures.p_loss == Approx(p[k]).epsilon(1e-12));
    CHECK(e.measures.p_obsolete == Approx(expiry / lambda).epsilon(1e-12));
    CHECK(e.measures.p_served == Approx(served / lambda).epsilon(1e-12));
    CHECK(e.measures.p_loss + e.measures.p_obsolete + e.measures.p_served ==
          Approx(1).epsilon(1e-12));
    // Little's law over accepted pages.
    double l = 0;
    for (int i = 0; i <= k; ++i) l += i * p[i];
    CHECK(e.measures.mean_sojourn == Approx(l / (lambda * (1 - p[k]))).epsilon(1e-12));
    // A page that finds one page in service and none waiting: served iff service ends before its
    // clock, so P(served | level 1) = mu / (mu + theta) and the sojourn is then Exp(mu+theta) +
    // Exp(mu). The whole law is checked against the brute force in tests/crosscheck.
    const auto sojourn = evaluator.sojourn_times(e);
    CHECK(sojourn.probability(PageFate::kServed) == Approx(e.measures.p_served).epsilon(1e-12));
    CHECK(sojourn.probability(PageFate::kObsolete) == Approx(e.measures.p_obsolete).epsilon(1e-12));
  }
}

TEST_CASE("a threshold policy is a birth-death chain with level-dependent arrivals",
          "[closed_form]") {
  // Mode 1: rate 0.5, mode 2: rate 2.5; 2 robots up to level 1, then 1 robot.
  const int k = 4;
  const model::Model m = birth_death({0.5, 2.5}, 1.5, k, 0.4);
  const auto policy = model::Policy::from_thresholds({1}, 2, k);
  const std::vector<double> rates{2.5, 2.5, 0.5, 0.5, 0.5};
  const auto p = birth_death_levels(rates, 1.5, 0.4);
  double offered = 0;
  for (int i = 0; i <= k; ++i) offered += p[i] * rates[i];
  const analytic::PolicyEvaluator evaluator(m, Method::kAuto);
  const auto e = evaluator.evaluate(policy);
  for (int i = 0; i <= k; ++i)
    CHECK(e.measures.level_probabilities[i] == Approx(p[i]).epsilon(1e-12));
  CHECK(e.measures.lambda == Approx(offered).epsilon(1e-12));
  CHECK(e.measures.p_loss == Approx(p[k] * 0.5 / offered).epsilon(1e-12));
  CHECK(e.measures.mode_probabilities[1] == Approx(p[0] + p[1]).epsilon(1e-12));
  CHECK(e.measures.mean_active_robots == Approx(1 + p[0] + p[1]).epsilon(1e-12));
}

TEST_CASE("M/E3/1/1: Erlang loss is insensitive to the service law", "[closed_form]") {
  const double lambda = 0.8, rate = 4.5;  // Erlang(3, 4.5): mean 2/3
  const model::Model m{.name = "erlang-loss",
                       .capacity = 1,
                       .arrivals = model::ArrivalModes({poisson(lambda)}),
                       .service = model::PhaseType::erlang(3, rate),
                       .obsolescence = model::PhaseType::exponential(1.0),
                       .costs = {.loss = 1, .sojourn = 1},
                       .policy = {}};
  const double rho = lambda * 3 / rate;
  for (Method method : all_methods()) {
    INFO(analytic::method_name(method));
    const analytic::PolicyEvaluator evaluator(m, method);
    const auto e = evaluator.evaluate(model::Policy::constant(1, 1, 1));
    CHECK(e.measures.p_loss == Approx(rho / (1 + rho)).epsilon(1e-12));
    CHECK(e.measures.mean_sojourn_served == Approx(3 / rate).epsilon(1e-12));
    CHECK(e.measures.cost == Approx(lambda * rho / (1 + rho) + 3 / rate).epsilon(1e-12));
    const auto sojourn = evaluator.sojourn_times(e);
    CHECK(sojourn.standard_deviation(PageFate::kServed) ==
          Approx(std::sqrt(3.0) / rate).epsilon(1e-10));
    for (double x : {0.2, 0.66, 1.5, 4.0})
      CHECK(sojourn.cdf(PageFate::kServed, x) == Approx(erlang_cdf(3, rate, x)).epsilon(1e-10));
  }
}

TEST_CASE("the QBD solver refuses batches", "[solvers]") {
  const model::Model m{.name = "batches",
                       .capacity = 3,
                       .arrivals = model::ArrivalModes({model::Bmap(
                           {model::Matrix::Constant(1, 1, -2), model::Matrix::Constant(1, 1, 1),
                            model::Matrix::Constant(1, 1, 1)})}),
                       .service = model::PhaseType::exponential(1),
                       .obsolescence = {},
                       .costs = {},
                       .policy = {}};
  const analytic::GeneratorBlocks blocks(m, model::Policy::constant(1, 1, 3));
  CHECK_THROWS_WITH(analytic::solve_stationary(blocks, Method::kQbd),
                    Catch::Contains("single arrivals"));
  CHECK(analytic::solve_stationary(blocks, Method::kAuto).summary.method ==
        Method::kBlockRecursion);
  CHECK(analytic::solve_stationary(blocks, Method::kAuto).summary.residual < 1e-13);
}
