#pragma once
// Quantiles of a long stream of values in bounded memory: keeps every stride-th value and doubles
// the stride (dropping every other kept value) when the store is full. A systematic subsample of a
// stationary stream estimates the same quantiles, with no random numbers and no per-value work.
#include <cstddef>
#include <vector>

namespace crawlq::sim {

class SampleQuantiles {
 public:
  explicit SampleQuantiles(std::size_t capacity = std::size_t{1} << 22);
  void add(double value);
  std::size_t kept() const { return values_.size(); }
  // The q-quantile of the kept values (0 when there are none).
  double quantile(double q) const;

 private:
  std::size_t capacity_;
  std::size_t stride_ = 1, seen_ = 0;
  std::vector<double> values_;
};

}  // namespace crawlq::sim
