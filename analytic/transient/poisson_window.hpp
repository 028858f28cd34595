#pragma once
// The Poisson weights of uniformisation: p(t) = sum_n P(N = n) p0 P^n with N ~ Poisson(q t), and
// the integral of p over [0, t] = (1/q) sum_n P(N > n) p0 P^n. Both sums are cut where the weight
// left out is below a tolerance, and the weight left out is reported, so that every transient
// answer carries its own error bound.
#include <cstddef>
#include <vector>

namespace crawlq::analytic {

struct PoissonWindow {
  // P(N = n) and P(N > n) for n = first..last(); below `first` the weights are below a double's
  // range (P(N = n) = 0 and P(N > n) = 1 to the last bit).
  std::size_t first = 0;
  std::vector<double> weight, beyond;
  // What the cut leaves out: of the weights (a bound on the l1 error of p(t)), and of the sum of
  // P(N > n) (times 1/q, a bound on the error of the integral).
  double omitted_weight = 0, omitted_beyond = 0;
  std::size_t last() const { return first + weight.size() - 1; }
  double weight_at(std::size_t n) const {
    return n < first || n > last() ? 0.0 : weight[n - first];
  }
  double beyond_at(std::size_t n) const {
    return n < first ? 1.0 : n > last() ? 0.0 : beyond[n - first];
  }
};

// The window for mean q t = `mean` >= 0, cut where both omitted amounts are below `tolerance`
// (the second relative to the mean, as the integral is of size t). Throws std::length_error beyond
// kMostPoissonTerms terms.
PoissonWindow poisson_window(double mean, double tolerance);

inline constexpr std::size_t kMostPoissonTerms = 50'000'000;

}  // namespace crawlq::analytic
