#pragma once
// How a quantity spreads over a set of answers (a bootstrap's refits, an ensemble's models): its
// mean, sample standard deviation and quantiles, for the JSON of both.
#include <vector>

namespace crawlq::api {

struct ValueSpread {
  double mean = 0, sd = 0;     // sd: with n - 1; 0 for one value
  std::vector<double> sorted;  // the values, increasing; not empty

  // The p-quantile, linear between order statistics (0 <= p <= 1).
  double quantile(double p) const;
};

// `values` must not be empty.
ValueSpread spread_of(std::vector<double> values);

}  // namespace crawlq::api
