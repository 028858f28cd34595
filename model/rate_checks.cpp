#include "model/rate_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "model/input_error.hpp"

namespace crawlq::model {

void check_probability_vector(const RowVector& p, const std::string& key) {
  if (p.size() == 0) throw InputError(key, "empty");
  for (Eigen::Index i = 0; i < p.size(); ++i) {
    if (!std::isfinite(p(i))) throw InputError(fmt::format("{}[{}]", key, i), "not a finite number");
    if (p(i) < 0)
      throw InputError(fmt::format("{}[{}]", key, i), fmt::format("negative probability {}", p(i)));
  }
  const double sum = p.sum();
  if (std::abs(sum - 1.0) > kProbabilitySumTolerance)
    throw InputError(key, fmt::format("sum {} != 1", sum));
}

void check_offdiagonal_nonnegative(const Matrix& m, const std::string& key) {
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      if (!std::isfinite(m(i, j)))
        throw InputError(fmt::format("{} row {}", key, i), "not a finite number");
      if (i != j && m(i, j) < 0)
        throw InputError(fmt::format("{} row {}", key, i),
                         fmt::format("negative rate {} off the diagonal (column {})", m(i, j), j));
    }
}

void check_nonnegative_entries(const Matrix& m, const std::string& key) {
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      if (!std::isfinite(m(i, j)))
        throw InputError(fmt::format("{} row {}", key, i), "not a finite number");
      if (m(i, j) < 0)
        throw InputError(fmt::format("{} row {}", key, i),
                         fmt::format("negative rate {} (column {})", m(i, j), j));
    }
}

namespace {
double row_scale(const Matrix& m, Eigen::Index row) {
  return std::max(1e-300, m.row(row).cwiseAbs().maxCoeff());
}
}  // namespace

void check_subgenerator(const Matrix& t, const std::string& key) {
  check_offdiagonal_nonnegative(t, key);
  const Eigen::Index n = t.rows();
  std::vector<bool> absorbs(n, false);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double sum = t.row(i).sum();
    if (sum > kRowSumTolerance * row_scale(t, i))
      throw InputError(fmt::format("{} row {}", key, i), fmt::format("sum {} > 0", sum));
    absorbs[i] = sum < -kRowSumTolerance * row_scale(t, i);
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

void check_conservative(const Matrix& generator, const std::string& key) {
  for (Eigen::Index i = 0; i < generator.rows(); ++i) {
    const double sum = generator.row(i).sum();
    if (std::abs(sum) > kRowSumTolerance * row_scale(generator, i))
      throw InputError(fmt::format("{} row {}", key, i), fmt::format("sum {} != 0", sum));
  }
}

}  // namespace crawlq::model
