#include "sim/sample_quantiles.hpp"

#include <algorithm>
#include <cmath>

namespace crawlq::sim {

SampleQuantiles::SampleQuantiles(std::size_t capacity)
    : capacity_(std::max<std::size_t>(capacity, 2)) {
  values_.reserve(std::min<std::size_t>(capacity_, 1 << 16));
}

void SampleQuantiles::keep(double value) {
  values_.push_back(value);
  next_kept_ += stride_;
  if (values_.size() < capacity_) return;
  // Keep the values at multiples of twice the stride: every other one, from the first.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < values_.size(); i += 2) values_[kept++] = values_[i];
  values_.resize(kept);
  stride_ *= 2;
  next_kept_ = (seen_ + stride_ - 1) / stride_ * stride_;
}

namespace {
std::size_t rank(double q, std::size_t n) {
  return static_cast<std::size_t>(std::ceil(q * n)) - (q > 0 ? 1 : 0);
}
}  // namespace

std::vector<double> SampleQuantiles::thinned(std::size_t count) const {
  if (values_.size() <= count) return values_;
  std::vector<double> out;
  const double step = static_cast<double>(values_.size()) / static_cast<double>(count);
  for (std::size_t i = 0; i < count; ++i)
    out.push_back(values_[static_cast<std::size_t>(i * step)]);
  return out;
}

double SampleQuantiles::quantile(double q) const { return quantiles({q}).front(); }

std::vector<double> SampleQuantiles::quantiles(const std::vector<double>& levels) const {
  std::vector<double> out(levels.size(), 0.0);
  if (values_.empty()) return out;
  std::vector<double> copy = values_;
  auto from = copy.begin();
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const auto at = copy.begin() + static_cast<std::ptrdiff_t>(rank(levels[i], copy.size()));
    std::nth_element(from, at, copy.end());
    out[i] = *at;
    from = at;
  }
  return out;
}

}  // namespace crawlq::sim
