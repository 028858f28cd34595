#include "api/value_spread.hpp"

#include <algorithm>
#include <cmath>

namespace crawlq::api {

double ValueSpread::quantile(double p) const {
  const double at = p * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

ValueSpread spread_of(std::vector<double> values) {
  const auto n = static_cast<double>(values.size());
  double mean = 0;
  for (const double v : values) mean += v / n;
  double squares = 0;
  for (const double v : values) squares += (v - mean) * (v - mean);
  std::sort(values.begin(), values.end());
  return {.mean = mean,
          .sd = values.size() > 1 ? std::sqrt(squares / (n - 1)) : 0.0,
          .sorted = std::move(values)};
}

}  // namespace crawlq::api
