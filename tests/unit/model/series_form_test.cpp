// The canonical series form against the law it stands for: the density beta exp(B x) b of the
// series and alpha exp(T x) t of the law, each from a dense matrix exponential, at times across the
// law's range.
#include "model/series_form.hpp"

#include <Eigen/Eigenvalues>
#include <catch2/catch.hpp>
#include <cmath>
#include <unsupported/Eigen/MatrixFunctions>

using crawlq::model::Matrix;
using crawlq::model::PhaseType;
using crawlq::model::RowVector;
using crawlq::model::series_form;
using crawlq::model::SeriesForm;

namespace {

PhaseType law(std::initializer_list<double> alpha, std::initializer_list<double> t) {
  const int n = static_cast<int>(alpha.size());
  RowVector a(n);
  int i = 0;
  for (const double x : alpha) a(i++) = x;
  Matrix m(n, n);
  i = 0;
  for (const double x : t) m(i / n, i % n) = x, ++i;
  return PhaseType(a, m);
}

double density(const RowVector& alpha, const Matrix& t, double x) {
  const crawlq::model::Vector exits = -t * crawlq::model::Vector::Ones(t.rows());
  return alpha * (t * x).exp() * exits;
}

void check_series_is_the_law(const PhaseType& given, const SeriesForm& series) {
  const int n = given.phases();
  REQUIRE(static_cast<int>(series.rates.size()) == n);
  REQUIRE(static_cast<int>(series.start.size()) == n);
  Matrix b = Matrix::Zero(n, n);
  RowVector start(n);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    if (i > 0) CHECK(series.rates[i - 1] <= series.rates[i]);
    CHECK(series.start[i] >= 0);
    sum += series.start[i];
    b(i, i) = -series.rates[i];
    if (i + 1 < n) b(i, i + 1) = series.rates[i];
    start(i) = series.start[i];
  }
  CHECK(sum == Approx(1).epsilon(1e-12));
  for (const double scale : {0.05, 0.3, 1.0, 2.5, 6.0}) {
    const double x = scale * given.mean();
    INFO("x = " << x);
    CHECK(density(start, b, x) ==
          Approx(density(given.initial(), given.subgenerator(), x)).epsilon(1e-9));
  }
}

}  // namespace

TEST_CASE("a two-phase Coxian law's series form, by hand", "[series_form]") {
  // Rates 1 and 3; the series starts in the fast phase with alpha t / 3 = 0.6 / 3.
  const auto series = series_form(law({1, 0}, {-1, 0.4, 0, -3}));
  REQUIRE(series);
  CHECK(series->rates[0] == Approx(1).epsilon(1e-15));
  CHECK(series->rates[1] == Approx(3).epsilon(1e-15));
  CHECK(series->start[1] == Approx(0.2).epsilon(1e-13));
  CHECK(series->start[0] == Approx(0.8).epsilon(1e-13));
}

TEST_CASE("Erlang laws start at the head of their series", "[series_form]") {
  const auto series = series_form(PhaseType::erlang(4, 2.5));
  REQUIRE(series);
  for (int i = 0; i < 4; ++i) CHECK(series->rates[i] == 2.5);
  CHECK(series->start[0] == Approx(1).epsilon(1e-13));
  for (int i = 1; i < 4; ++i) CHECK(series->start[i] == Approx(0).margin(1e-13));
}

TEST_CASE("series forms have the density of their laws", "[series_form]") {
  const PhaseType laws[] = {
      // Two phases with moves both ways: real eigenvalues, always a series.
      law({0.7, 0.3}, {-2, 1.2, 0.3, -1}),
      // Acyclic, three phases, a move that skips the middle, phases in no rate order.
      law({0.5, 0.2, 0.3}, {-4, 1, 2.5, 0, -0.7, 0.5, 0, 0, -1.6}),
      // A hyperexponential law: every phase exits and none moves.
      law({0.2, 0.3, 0.5}, {-1, 0, 0, 0, -2.2, 0, 0, 0, -4.5}),
      // Acyclic, four phases, two of them at one rate (a repeated eigenvalue), moves listed
      // against the phases' order.
      law({0.1, 0.2, 0.3, 0.4}, {-1.5, 0, 0, 0, 0.9, -1.5, 0, 0, 0.2, 0.6, -3, 0, 0, 1.1, 0.4, -2}),
      // Moves that go round (0 -> 1 -> 2 -> 1) with real eigenvalues and a nonnegative series.
      law({0.5, 0.25, 0.25}, {-2, 1, 0.5, 0.2, -1, 0.3, 0, 2, -3})};
  for (const auto& given : laws) {
    INFO("law of " << given.phases() << " phases, mean " << given.mean());
    const auto series = series_form(given);
    REQUIRE(series);
    check_series_is_the_law(given, *series);
  }
}

TEST_CASE("laws without a series form get none", "[series_form]") {
  // A ring 0 -> 1 -> 2 -> 0 whose -T has complex eigenvalues.
  const PhaseType ring = law({1, 0, 0}, {-3, 3, 0, 0, -3, 3, 2.9, 0, -3});
  const Eigen::VectorXcd eigenvalues =
      Eigen::EigenSolver<Matrix>(ring.subgenerator(), false).eigenvalues();
  CHECK(eigenvalues.imag().cwiseAbs().maxCoeff() > 0.1);
  CHECK_FALSE(series_form(ring));
  // A ring with real eigenvalues whose series would start in its middle phase with chance -0.057.
  const PhaseType negative = law({1, 0, 0}, {-1.8, 1.2, 0, 0, -0.3, 0.3, 0.6, 0, -0.6});
  const Eigen::VectorXcd real =
      Eigen::EigenSolver<Matrix>(negative.subgenerator(), false).eigenvalues();
  CHECK(real.imag().cwiseAbs().maxCoeff() < 1e-12);
  CHECK_FALSE(series_form(negative));
}
