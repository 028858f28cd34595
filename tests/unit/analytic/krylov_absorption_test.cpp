// The tagged page's absorbed masses by Krylov steps against dense matrix exponentials of its chain
// with the fates as absorbing states, on a chain with a phase a million times faster than the
// sojourn; the dense output between steps; the product budget; and the automatic choice of method.
#include "analytic/sojourn/krylov_absorption.hpp"

#include <fmt/format.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <iomanip>
#include <random>
#include <string>
#include <unsupported/Eigen/MatrixFunctions>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/sojourn/sojourn_times.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq::analytic {
namespace {

// A three-phase service whose first phase leaves `fast` times as often as the others (no symmetry
// anywhere).
model::Model stiff_model(double fast = 1e6) {
  return scenarios::parse_scenario(fmt::format(R"(capacity: 4
admission: partial
arrivals: {{kind: poisson, modes: [{{rate: 1.3, batch: [0.7, 0.3]}}]}}
service: {{beta: [0.5, 0.3, 0.2], S: [[{}, {}, {}], [0, -0.77, 0.29], [0.1, 0, -1.9]]}}
obsolescence: {{gamma: [0.6, 0.4], Gamma: [[-0.37, 0.11], [0.04, -0.52]]}}
)",
                                               -2.3 * fast, 1.6 * fast, 0.2 * fast),
                                   "stiff")
      .model;
}

// T with its two exits as columns of absorbing states, transposed: the generator acting on
// distributions as columns, written densely from the operator's rows.
Eigen::MatrixXd dense_absorbing_generator(const TaggedPageChain& chain) {
  const Eigen::Index n = chain.size();
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n + 2, n + 2);
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(n), row(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    unit(i) = 1;
    chain.subgenerator().left_multiply(unit.data(), row.data(), chain.max_pages_ahead());
    unit(i) = 0;
    a.block(0, i, n, 1) = row;
    a(n, i) = chain.served_exit()(i);
    a(n + 1, i) = chain.obsolete_exit()(i);
  }
  return a;
}

Eigen::RowVectorXd random_start(Eigen::Index size, double mass, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  Eigen::RowVectorXd start(size);
  for (Eigen::Index i = 0; i < size; ++i) start(i) = uniform(generator);
  return start * (mass / start.sum());
}

TEST_CASE("Krylov absorption: the fates' masses equal the exact exponential's, at any time asked",
          "[analytic][sojourn]") {
  for (double fast : {1e4, 1e6}) {
    const model::Model model = stiff_model(fast);
    const TaggedPageChain chain(model);
    const double q = chain.max_exit_rate();
    INFO("fastest exit " << q);
    // The reference in long double: in double the exponential's squarings lose about
    // epsilon ||x A||, as much as the Krylov steps' rounding.
    using LongMatrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
    const LongMatrix a = dense_absorbing_generator(chain).cast<long double>();
    const Eigen::Index n = chain.size();
    const Eigen::RowVectorXd start = random_start(n, 0.83, 7);
    Eigen::Matrix<long double, Eigen::Dynamic, 1> x0 =
        Eigen::Matrix<long double, Eigen::Dynamic, 1>::Zero(n + 2);
    x0.head(n) = start.transpose().cast<long double>();
    KrylovAbsorption krylov(chain, start, 6.0, 1e-13, 100000);
    REQUIRE(krylov.dimension() > 1);
    // Far out first, then back within the steps taken (dense output), then past them again.
    for (double x : {4.0, 1e-7, 3e-6, 0.05, 0.9, 2.5, 4.0, 11.0, 30.0}) {
      const Eigen::VectorXd exact = ((static_cast<long double>(x) * a).exp() * x0).cast<double>();
      const std::array<double, 2> masses = krylov.absorbed(x);
      // The tolerance asked for, and the rounding of the Arnoldi relation: H is A's projection to
      // about epsilon ||A||, carried over x (7 x 10^-10 at x = 30 with the phase at 2.3 x 10^6).
      const double allowed =
          1e-13 * std::max(1.0, x / 6.0) + std::numeric_limits<double>::epsilon() * q * x;
      INFO(std::setprecision(17) << "x = " << x << ": served " << masses[0] << " vs " << exact(n)
                                 << ", obsolete " << masses[1] << " vs " << exact(n + 1));
      CHECK_THAT(masses[0], Catch::Matchers::WithinAbs(exact(n), allowed));
      CHECK_THAT(masses[1], Catch::Matchers::WithinAbs(exact(n + 1), allowed));
    }
    // Uniformisation would have taken q products per unit of time: 7 x 10^5 to x = 30 with the
    // slower fast phase.
    INFO("products " << krylov.products() << ", steps " << krylov.steps());
    CHECK(krylov.products() < 3000);
    CHECK(krylov.absorbed(0) == std::array<double, 2>{0.0, 0.0});
    // Long after, the page has surely left: the steps stop at the fixed point, and the masses stay
    // at each fate's probability.
    // (Settled by x = 100, with the error of the steps until then.)
    const int steps = krylov.steps();
    const double settled_error = 1e-12 + std::numeric_limits<double>::epsilon() * q * 100;
    for (double x : {1e4, 2e4, 5e3}) {
      CHECK_THAT(krylov.absorbed(x)[0],
                 Catch::Matchers::WithinAbs(chain.moment_from(start, PageFate::kServed, 0),
                                            settled_error));
      CHECK_THAT(krylov.absorbed(x)[1],
                 Catch::Matchers::WithinAbs(chain.moment_from(start, PageFate::kObsolete, 0),
                                            settled_error));
    }
    CHECK(krylov.steps() < steps + 60);
  }
}

TEST_CASE("Krylov absorption: past its product budget, a refusal that names it",
          "[analytic][sojourn]") {
  const TaggedPageChain chain(stiff_model());
  KrylovAbsorption krylov(chain, random_start(chain.size(), 1, 3), 6.0, 1e-13, 40);
  CHECK_THROWS_WITH(krylov.absorbed(5.0),
                    Catch::Contains("more than 40 products") && Catch::Contains("x = 5 "));
  // The budget is spent: a later time is refused at once, and nothing was kept of the stretch.
  CHECK_THROWS_WITH(krylov.absorbed(0.5), Catch::Contains("x = 0.5 needs more than 40 products"));
  CHECK(krylov.steps() == 0);
  // Out of budget midway through a later stretch: the steps kept end where the last whole
  // stretch did, and the times within it still answer.
  KrylovAbsorption probe(chain, random_start(chain.size(), 1, 3), 6.0, 1e-13);
  const std::array<double, 2> early = probe.absorbed(1.0);
  const int steps = probe.steps();
  KrylovAbsorption budgeted(chain, random_start(chain.size(), 1, 3), 6.0, 1e-13,
                            probe.products() + 45);
  CHECK(budgeted.absorbed(1.0) == early);
  CHECK_THROWS_WITH(budgeted.absorbed(20.0), Catch::Contains("x = 20 needs more than"));
  CHECK(budgeted.steps() == steps);
  CHECK(budgeted.absorbed(1.0) == early);
  CHECK(budgeted.absorbed(5.9) == probe.absorbed(5.9));
  // Cancelled: the same, and once the flag is down again the steps go on.
  std::atomic<bool> stop{false};
  KrylovAbsorption cancelled(chain, random_start(chain.size(), 1, 3), 6.0, 1e-13, 0, &stop);
  CHECK(cancelled.absorbed(1.0) == early);
  stop = true;
  CHECK_THROWS_AS(cancelled.absorbed(20.0), Cancelled);
  CHECK(cancelled.steps() == steps);
  stop = false;
  CHECK(cancelled.absorbed(20.0) == probe.absorbed(20.0));
  CHECK_THROWS_AS(KrylovAbsorption(chain, random_start(chain.size(), 1, 3), 0, 1e-13),
                  std::invalid_argument);
}

TEST_CASE("sojourn laws: Krylov steps where uniformisation would need too many products",
          "[analytic][sojourn]") {
  const model::Model stiff = stiff_model();
  const PolicyEvaluator evaluator(stiff);
  const PolicyEvaluation evaluation =
      evaluator.evaluate(model::Policy::constant(1, 1, stiff.capacity));
  const SojournTimes automatic = evaluator.sojourn_times(evaluation);
  REQUIRE(automatic.law_method() == LawMethod::kKrylov);
  SojournTimes uniformised = evaluator.sojourn_times(evaluation);
  uniformised.set_law_method(LawMethod::kUniformisation);
  REQUIRE(uniformised.law_method() == LawMethod::kUniformisation);
  // Early on both can: the two methods agree there.
  for (PageFate fate : {PageFate::kAccepted, PageFate::kServed, PageFate::kObsolete})
    for (double x : {1e-6, 2e-3, 0.01})
      CHECK_THAT(automatic.cdf(fate, x),
                 Catch::Matchers::WithinAbs(uniformised.cdf(fate, x), 1e-10));
  // The quantiles are where the distribution function reaches their level.
  const double median = automatic.quantile(PageFate::kServed, 0.5);
  CHECK(automatic.cdf(PageFate::kServed, median) == Approx(0.5).margin(1e-9));
  CHECK(automatic.cdf(PageFate::kServed, median * (1 - 1e-6)) < 0.5);
  // A request whose client has gone stops either way at its next product.
  const std::atomic<bool> stop{true};
  for (LawMethod method : {LawMethod::kUniformisation, LawMethod::kKrylov}) {
    SojournTimes stopped = evaluator.sojourn_times(evaluation);
    stopped.set_law_method(method);
    stopped.set_stop(&stop);
    CHECK_THROWS_AS(stopped.cdf(PageFate::kServed, 0.5), Cancelled);
  }
  // A chain whose rates are alike is uniformised.
  model::Model mild = stiff;
  mild.service = model::PhaseType(
      Eigen::RowVector3d(0.5, 0.3, 0.2),
      (Eigen::Matrix3d() << -2.3, 1.6, 0.2, 0, -0.77, 0.29, 0.1, 0, -1.9).finished());
  const PolicyEvaluator mild_evaluator(mild);
  CHECK(mild_evaluator
            .sojourn_times(mild_evaluator.evaluate(model::Policy::constant(1, 1, mild.capacity)))
            .law_method() == LawMethod::kUniformisation);
}

}  // namespace
}  // namespace crawlq::analytic
