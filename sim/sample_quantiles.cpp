#include "sim/sample_quantiles.hpp"

#include <algorithm>
#include <cmath>

namespace crawlq::sim {

SampleQuantiles::SampleQuantiles(std::size_t capacity) : capacity_(std::max<std::size_t>(capacity, 2)) {
  values_.reserve(std::min<std::size_t>(capacity_, 1 << 16));
}

void SampleQuantiles::add(double value) {
  if (seen_++ % stride_ != 0) return;
  values_.push_back(value);
  if (values_.size() < capacity_) return;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < values_.size(); i += 2) values_[kept++] = values_[i];
  values_.resize(kept);
  stride_ *= 2;
}

double SampleQuantiles::quantile(double q) const {
  if (values_.empty()) return 0.0;
  std::vector<double> copy = values_;
  const auto k = static_cast<std::size_t>(std::ceil(q * copy.size())) - (q > 0 ? 1 : 0);
  std::nth_element(copy.begin(), copy.begin() + k, copy.end());
  return copy[k];
}

}  // namespace crawlq::sim
