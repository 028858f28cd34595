#include "fit/map_statistics.hpp"

#include <cmath>
#include <limits>
#include <unsupported/Eigen/MatrixFunctions>
#include <utility>
#include <vector>

namespace crawlq::fit {

namespace {

model::RowVector arrival_phases(const model::Matrix& d0, const model::Matrix& d1) {
  const model::Matrix p = (-d0).partialPivLu().solve(d1);
  const Eigen::Index n = p.rows();
  // pi (P - I) = 0 with pi e = 1: the last equation replaced by the normalisation.
  model::Matrix a = (p - model::Matrix::Identity(n, n)).transpose();
  a.row(n - 1).setOnes();
  model::Vector b = model::Vector::Zero(n);
  b(n - 1) = 1;
  return a.partialPivLu().solve(b).transpose();
}

// v exp(D0 x) for many x. When D0 is made of chains (upper bidiagonal, one rate along each chain:
// Erlang and hyperexponential blocks, as the regimes' MAP has), exp(D0 x) = e^{-lambda x} sum_m (N
// x)^m / m! on each chain with N its nilpotent part: O(k^2) a chain instead of a matrix exponential
// a time, which made a 10-million-line log take minutes.
class ExponentialAction {
 public:
  explicit ExponentialAction(const model::Matrix& d0) : d0_(d0) {
    const Eigen::Index n = d0.rows();
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j)
        if (j != i && j != i + 1 && d0(i, j) != 0) return;  // not bidiagonal: the general way
    Eigen::Index start = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (i > start && d0(i, i) != d0(start, start)) return;  // two rates in one chain
      if (i + 1 == n || d0(i, i + 1) == 0) {
        chains_.push_back({start, i + 1});
        start = i + 1;
      }
    }
  }

  model::RowVector apply(const model::RowVector& v, double x) const {
    if (chains_.empty()) return v * (d0_ * x).exp();
    model::RowVector out(v.size());
    for (const auto& [begin, end] : chains_) {
      const double decay = std::exp(d0_(begin, begin) * x);
      for (Eigen::Index j = begin; j < end; ++j) {
        // sum over i <= j of v_i x^(j-i)/(j-i)! prod of N's entries from i to j.
        double sum = v(j), factor = 1;
        for (Eigen::Index i = j - 1; i >= begin; --i) {
          factor *= d0_(i, i + 1) * x / static_cast<double>(j - i);
          sum += v(i) * factor;
        }
        out(j) = decay * sum;
      }
    }
    return out;
  }

 private:
  const model::Matrix& d0_;
  std::vector<std::pair<Eigen::Index, Eigen::Index>> chains_;  // [begin, end)
};

}  // namespace

MapStatistics map_statistics(const model::Matrix& d0, const model::Matrix& d1, int lags) {
  const auto lu = (-d0).partialPivLu();
  const model::RowVector pi = arrival_phases(d0, d1);
  const Eigen::Index n = d0.rows();
  const model::Vector x = lu.solve(model::Vector::Ones(n));  // (-D0)^-1 e
  const model::Vector xx = lu.solve(x);                      // (-D0)^-2 e
  MapStatistics s;
  s.mean = pi.dot(x);
  const double second = 2 * pi.dot(xx);
  s.variance = second - s.mean * s.mean;
  s.scv = s.variance / (s.mean * s.mean);
  const model::Matrix p = lu.solve(d1);
  model::Vector y = x;                                                          // P^k (-D0)^-1 e
  const model::RowVector start = pi * lu.solve(model::Matrix::Identity(n, n));  // pi (-D0)^-1
  for (int k = 1; k <= lags; ++k) {
    y = p * y;
    s.lag_correlations.push_back((start.dot(y) - s.mean * s.mean) / s.variance);
  }
  return s;
}

double map_log_likelihood(const model::Matrix& d0, const model::Matrix& d1,
                          const std::vector<std::vector<double>>& runs) {
  const model::RowVector pi = arrival_phases(d0, d1);
  const ExponentialAction exponential(d0);
  double log_likelihood = 0;
  for (const auto& run : runs) {
    model::RowVector v = pi;
    for (const double x : run) {
      v = exponential.apply(v, x) * d1;
      const double scale = v.sum();
      if (!(scale > 0)) return -std::numeric_limits<double>::infinity();
      log_likelihood += std::log(scale);
      v /= scale;
    }
  }
  return log_likelihood;
}

std::vector<double> map_interval_quantiles(const model::Matrix& d0, const model::Matrix& d1,
                                           const std::vector<double>& probabilities) {
  const model::RowVector pi = arrival_phases(d0, d1);
  const ExponentialAction exponential(d0);
  const auto survival = [&](double x) { return exponential.apply(pi, x).sum(); };
  const double mean = pi.dot((-d0).partialPivLu().solve(model::Vector::Ones(d0.rows())));
  std::vector<double> quantiles;
  for (const double p : probabilities) {
    double low = 0, high = mean > 0 ? mean : 1;
    // Doubling past the largest double ends in inf, whose survival is 0.
    for (int doubling = 0; doubling < 2100 && survival(high) > 1 - p; ++doubling) high *= 2;
    for (int step = 0; step < 100 && high - low > 1e-12 * high; ++step) {
      const double middle = 0.5 * (low + high);
      (survival(middle) > 1 - p ? low : high) = middle;
    }
    quantiles.push_back(0.5 * (low + high));
  }
  return quantiles;
}

}  // namespace crawlq::fit
