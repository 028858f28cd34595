#include "model/series_form.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

namespace crawlq::model {

namespace {

// Round-off allowed in the imaginary parts of eigenvalues.
constexpr double kImaginaryRoundOff = 1e-9;
// The match asked of the series' first three moments: far above a double's round-off, far below any
// difference between two laws that matters to a simulation.
constexpr double kMomentMatch = 1e-8;

// Whether the moves between phases never come back to a phase (a depth-first search for a cycle).
bool moves_acyclic(const Matrix& t) {
  const int n = static_cast<int>(t.rows());
  enum class Mark { kNew, kOnPath, kDone };
  std::vector<Mark> marks(static_cast<std::size_t>(n), Mark::kNew);
  const auto reaches_cycle = [&](auto&& self, int i) -> bool {
    marks[i] = Mark::kOnPath;
    for (int j = 0; j < n; ++j) {
      if (j == i || !(t(i, j) > 0)) continue;
      if (marks[j] == Mark::kOnPath) return true;
      if (marks[j] == Mark::kNew && self(self, j)) return true;
    }
    marks[i] = Mark::kDone;
    return false;
  };
  for (int i = 0; i < n; ++i)
    if (marks[i] == Mark::kNew && reaches_cycle(reaches_cycle, i)) return false;
  return true;
}

// The eigenvalues of -T, ascending, where all are real: exactly the diagonal of an acyclic law.
std::optional<std::vector<double>> real_rates(const Matrix& t) {
  std::vector<double> rates;
  if (moves_acyclic(t)) {
    for (int i = 0; i < t.rows(); ++i) rates.push_back(-t(i, i));
  } else {
    const Eigen::EigenSolver<Matrix> solver(t, false);
    if (solver.info() != Eigen::Success) return std::nullopt;
    for (const auto& e : solver.eigenvalues()) {
      if (!std::isfinite(e.real()) || std::abs(e.imag()) > kImaginaryRoundOff * std::abs(e))
        return std::nullopt;
      rates.push_back(-e.real());
    }
  }
  std::sort(rates.begin(), rates.end());
  return rates;
}

}  // namespace

std::optional<SeriesForm> series_form(const PhaseType& law) {
  const Matrix& t = law.subgenerator();
  const int n = law.phases();
  const auto rates = real_rates(t);
  if (!rates || rates->front() <= 0) return std::nullopt;
  SeriesForm form{*rates, std::vector<double>(static_cast<std::size_t>(n))};
  Vector w = law.exit_rates() / form.rates[n - 1];
  for (int i = n - 1; i >= 0; --i) {
    if (i < n - 1) w = (t * w + form.rates[i + 1] * w) / form.rates[i];
    // A negative chance is round-off, or the law has no series: the moments below tell which.
    form.start[i] = std::max(law.initial().dot(w), 0.0);
  }
  double sum = 0;
  for (const double beta : form.start) sum += beta;
  for (double& beta : form.start) beta /= sum;
  // The series' moments k! beta (-B)^{-k} e, from the bottom up: (-B) y = x is y_i = x_i / lambda_i
  // + y_{i+1}.
  Vector x = Vector::Ones(n);
  double factorial = 1;
  for (int k = 1; k <= 3; ++k) {
    for (int i = n - 1; i >= 0; --i) x(i) = x(i) / form.rates[i] + (i + 1 < n ? x(i + 1) : 0.0);
    factorial *= k;
    double moment = 0;
    for (int i = 0; i < n; ++i) moment += form.start[i] * x(i);
    moment *= factorial;
    if (!(std::abs(moment - law.moment(k)) <= kMomentMatch * law.moment(k))) return std::nullopt;
  }
  return form;
}

}  // namespace crawlq::model
