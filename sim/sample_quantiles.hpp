#pragma once
// Quantiles of a long stream of values in bounded memory: keeps every stride-th value and doubles
// the stride (dropping every other kept value) when the store is full. A systematic subsample of a
// stationary stream estimates the same quantiles, with no random numbers and no per-value work.
#include <cstddef>
#include <vector>

namespace crawlq::sim {

class SampleQuantiles {
 public:
  // 2^18 kept values put the quantiles of one replication within a fraction of a percent of the
  // whole stream's, far inside the spread between replications that the intervals measure.
  explicit SampleQuantiles(std::size_t capacity = std::size_t{1} << 18);
  void add(double value) {
    if (seen_++ == next_kept_) keep(value);
  }
  std::size_t kept() const { return values_.size(); }
  // The q-quantile of the kept values (0 when there are none).
  double quantile(double q) const;
  // At most `count` of the kept values, evenly spaced through the stream.
  std::vector<double> thinned(std::size_t count) const;
  // Several quantiles at once, `levels` increasing: one copy, each search on what is left above.
  std::vector<double> quantiles(const std::vector<double>& levels) const;

 private:
  void keep(double value);

  std::size_t capacity_;
  // Values at positions 0, stride, 2 stride, ... of the stream are kept; next_kept_ is the next
  // such position, so that add() compares instead of dividing.
  std::size_t stride_ = 1, seen_ = 0, next_kept_ = 0;
  std::vector<double> values_;
};

}  // namespace crawlq::sim
