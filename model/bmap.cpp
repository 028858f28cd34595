#include "model/bmap.hpp"

#include <fmt/format.h>

#include "model/input_error.hpp"
#include "model/rate_checks.hpp"

namespace crawlq::model {

double d0_diagonal(const std::vector<Matrix>& d, Eigen::Index row) {
  double others = d[0].row(row).sum() - d[0](row, row);
  for (std::size_t k = 1; k < d.size(); ++k) others += d[k].row(row).sum();
  return -others;
}

void check_bmap_shapes(const std::vector<Matrix>& d, const std::string& key_path) {
  if (d.size() < 2)
    throw InputError(key_path, fmt::format("{} matrices: need at least D0 and D1", d.size()));
  const Eigen::Index n = d[0].rows();
  if (n == 0) throw InputError(key_path + "[0]", "empty matrix");
  if (d[0].cols() != n)
    throw InputError(key_path + "[0]", fmt::format("{}x{}: D0 must be square", n, d[0].cols()));
  for (std::size_t k = 1; k < d.size(); ++k)
    if (d[k].rows() != n || d[k].cols() != n)
      throw InputError(fmt::format("{}[{}]", key_path, k),
                       fmt::format("{}x{} but D0 is {}x{}", d[k].rows(), d[k].cols(), n, n));
}

Bmap::Bmap(std::vector<Matrix> d, const std::string& key_path, const Vector& written_sizes)
    : d_(std::move(d)) {
  check_bmap_shapes(d_, key_path);
  for (std::size_t k = 0; k < d_.size(); ++k) {
    const std::string key = fmt::format("{}[{}]", key_path, k);
    if (k == 0)
      check_offdiagonal_nonnegative(d_[k], key);
    else
      check_nonnegative_entries(d_[k], key);
  }
  check_conservative(d_, key_path, written_sizes);
  const Matrix q = generator();
  bool brings_pages = false;
  for (std::size_t k = 1; k < d_.size(); ++k) brings_pages = brings_pages || d_[k].maxCoeff() > 0;
  if (!brings_pages)
    throw InputError(key_path, "no batch has a positive rate: no page ever arrives");
  if (closed_class_count(q) != 1)
    throw InputError(key_path, "the phase process D(1) has more than one closed class");
  theta_ = stationary_distribution(q);
}

Matrix Bmap::d(int k) const {
  if (k < 0 || k > max_batch()) return Matrix::Zero(phases(), phases());
  return d_[k];
}

Matrix Bmap::generator() const {
  Matrix sum = Matrix::Zero(d_[0].rows(), d_[0].cols());
  for (const auto& m : d_) sum += m;
  return sum;
}

double Bmap::fundamental_rate() const {
  Matrix weighted = Matrix::Zero(phases(), phases());
  for (int k = 1; k <= max_batch(); ++k) weighted += k * d_[k];
  return theta_ * weighted * Vector::Ones(phases());
}

double Bmap::group_rate() const { return theta_ * (-d_[0]) * Vector::Ones(phases()); }

double Bmap::group_interval_variance() const {
  const double rate = group_rate();
  const Vector x = (-d_[0]).partialPivLu().solve(Vector::Ones(phases()));
  return 2.0 / rate * theta_.dot(x) - 1.0 / (rate * rate);
}

double Bmap::group_interval_lag1_correlation() const {
  const double rate = group_rate();
  const double variance = group_interval_variance();
  const auto lu = (-d_[0]).partialPivLu();
  const Vector x = lu.solve(Vector::Ones(phases()));
  const Vector y = lu.solve((generator() - d_[0]) * x);
  return (rate * theta_.dot(y) - 1.0) / (variance * rate * rate);
}

}  // namespace crawlq::model
