#include "model/rate_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "model/input_error.hpp"

namespace crawlq::model {

std::string TermSum::shown() const {
  // Adding the terms loses a few ulps of the largest; digits below that are noise.
  const double noise = 4 * std::numeric_limits<double>::epsilon() * magnitude_;
  if (sum_ == 0 || noise == 0) return fmt::format("{:.15g}", sum_);
  const int digits =
      static_cast<int>(std::floor(std::log10(std::abs(sum_))) - std::floor(std::log10(noise)));
  return fmt::format("{:.{}g}", sum_, std::clamp(digits, 1, 15));
}

void check_probability_vector(const RowVector& p, const std::string& key) {
  if (p.size() == 0) throw InputError(key, "empty");
  for (Eigen::Index i = 0; i < p.size(); ++i) {
    if (!std::isfinite(p(i)))
      throw InputError(fmt::format("{}[{}]", key, i), "not a finite number");
    if (p(i) < 0)
      throw InputError(fmt::format("{}[{}]", key, i), fmt::format("negative probability {}", p(i)));
  }
  TermSum sum;
  for (Eigen::Index i = 0; i < p.size(); ++i) sum.add(p(i));
  if (!sum.equals(1.0)) throw InputError(key, fmt::format("sum {} != 1", sum.shown()));
}

namespace {

// Rates far outside [kSmallestRate, kLargestRate] overflow or vanish in the products the engines
// form (1e300 squared is inf), so they are refused with the remedy rather than solved to nan.
void check_rate_size(double rate, const std::string& key, Eigen::Index row, Eigen::Index column) {
  if (!std::isfinite(rate))
    throw InputError(fmt::format("{} row {}", key, row), "not a finite number");
  const double size = std::abs(rate);
  if (size > kLargestRate || (size > 0 && size < kSmallestRate))
    throw InputError(
        fmt::format("{} row {}", key, row),
        fmt::format(
            "rate {} (column {}) outside {:g}..{:g}: change the time unit, or write 0 for none",
            rate, column, kSmallestRate, kLargestRate));
}

}  // namespace

void check_offdiagonal_nonnegative(const Matrix& m, const std::string& key) {
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      check_rate_size(m(i, j), key, i, j);
      if (i != j && m(i, j) < 0)
        throw InputError(fmt::format("{} row {}", key, i),
                         fmt::format("negative rate {} off the diagonal (column {})", m(i, j), j));
    }
}

void check_nonnegative_entries(const Matrix& m, const std::string& key) {
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      check_rate_size(m(i, j), key, i, j);
      if (m(i, j) < 0)
        throw InputError(fmt::format("{} row {}", key, i),
                         fmt::format("negative rate {} (column {})", m(i, j), j));
    }
}

TermSum row_sum(const Matrix& m, Eigen::Index row) {
  TermSum sum;
  for (Eigen::Index j = 0; j < m.cols(); ++j) sum.add(m(row, j));
  return sum;
}

void check_subgenerator(const Matrix& t, const std::string& key) {
  check_offdiagonal_nonnegative(t, key);
  const Eigen::Index n = t.rows();
  std::vector<bool> absorbs(n, false);
  for (Eigen::Index i = 0; i < n; ++i) {
    const TermSum sum = row_sum(t, i);
    if (sum.exceeds(0.0))
      throw InputError(fmt::format("{} row {}", key, i), fmt::format("sum {} > 0", sum.shown()));
    absorbs[i] = sum.falls_short(0.0);
  }
  // Every phase must lead to absorption, or the time is infinite with positive probability.
  bool changed = true;
  while (changed) {
    changed = false;
    for (Eigen::Index i = 0; i < n; ++i)
      if (!absorbs[i])
        for (Eigen::Index j = 0; j < n; ++j)
          if (j != i && t(i, j) > 0 && absorbs[j]) {
            absorbs[i] = changed = true;
            break;
          }
  }
  for (Eigen::Index i = 0; i < n; ++i)
    if (!absorbs[i])
      throw InputError(key, fmt::format("phase {} never reaches absorption (no exit rate)", i));
}

Vector row_term_sizes(const std::vector<Matrix>& d) {
  Vector sizes = Vector::Zero(d.front().rows());
  for (const Matrix& m : d) sizes += m.cwiseAbs().rowwise().sum();
  return sizes;
}

void check_conservative(const std::vector<Matrix>& terms, const std::string& key,
                        const Vector& written_sizes) {
  for (Eigen::Index i = 0; i < terms.front().rows(); ++i) {
    TermSum sum;
    for (const Matrix& m : terms)
      for (Eigen::Index j = 0; j < m.cols(); ++j) sum.add(m(i, j));
    if (written_sizes.size() > 0) sum.judge_against(written_sizes(i));
    if (!sum.equals(0.0))
      throw InputError(fmt::format("{} row {}", key, i), fmt::format("sum {} != 0", sum.shown()));
  }
}

}  // namespace crawlq::model
