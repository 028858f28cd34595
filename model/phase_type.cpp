#include "model/phase_type.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "model/input_error.hpp"
#include "model/rate_checks.hpp"

namespace crawlq::model {

namespace {
// Exit rates are row sums of T, exact only to the last bits of the inputs.
constexpr double kSameExitRate = 1e-12;
}  // namespace

PhaseType::PhaseType(RowVector initial, Matrix subgenerator, const std::string& key_path,
                     const std::string& initial_key, const std::string& matrix_key)
    : initial_(std::move(initial)), subgenerator_(std::move(subgenerator)) {
  const std::string prefix = key_path.empty() ? "" : key_path + ".";
  check_probability_vector(initial_, prefix + initial_key);
  if (subgenerator_.rows() != subgenerator_.cols() || subgenerator_.rows() != initial_.size())
    throw InputError(prefix + matrix_key,
                     fmt::format("{}x{} but {} has {} entries", subgenerator_.rows(),
                                 subgenerator_.cols(), initial_key, initial_.size()));
  check_subgenerator(subgenerator_, prefix + matrix_key);
  exit_rates_.resize(phases());
  for (int i = 0; i < phases(); ++i) {
    const TermSum sum = row_sum(subgenerator_, i);
    exit_rates_(i) = sum.falls_short(0.0) ? -sum.value() : 0.0;
  }
}

std::optional<double> PhaseType::common_exit_rate() const {
  const double most = exit_rates_.maxCoeff(), least = exit_rates_.minCoeff();
  if (!(most > 0) || most - least > kSameExitRate * most) return std::nullopt;
  return exit_rates_.mean();
}

PhaseType PhaseType::paused() const {
  PhaseType law = *this;
  law.subgenerator_.setZero();
  law.exit_rates_.setZero();
  return law;
}

PhaseType PhaseType::exponential(double rate) {
  return PhaseType(RowVector::Ones(1), Matrix::Constant(1, 1, -rate));
}

PhaseType PhaseType::erlang(int phases, double rate) {
  RowVector initial = RowVector::Zero(phases);
  initial(0) = 1.0;
  Matrix t = Matrix::Zero(phases, phases);
  for (int i = 0; i < phases; ++i) {
    t(i, i) = -rate;
    if (i + 1 < phases) t(i, i + 1) = rate;
  }
  return PhaseType(initial, t);
}

double PhaseType::moment(int k) const {
  const auto lu = (-subgenerator_).partialPivLu();
  Vector x = Vector::Ones(phases());
  double factorial = 1.0;
  for (int i = 1; i <= k; ++i) {
    x = lu.solve(x);
    factorial *= i;
  }
  return factorial * initial_.dot(x);
}

double PhaseType::variance() const {
  const double m = mean();
  return moment(2) - m * m;
}

}  // namespace crawlq::model
