#include "fit/map_statistics.hpp"

#include <unsupported/Eigen/MatrixFunctions>

#include <cmath>
#include <limits>

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

}  // namespace

MapStatistics map_statistics(const model::Matrix& d0, const model::Matrix& d1, int lags) {
  const auto lu = (-d0).partialPivLu();
  const model::RowVector pi = arrival_phases(d0, d1);
  const Eigen::Index n = d0.rows();
  const model::Vector x = lu.solve(model::Vector::Ones(n));  // (-D0)^-1 e
  const model::Vector xx = lu.solve(x);                        // (-D0)^-2 e
  MapStatistics s;
  s.mean = pi.dot(x);
  const double second = 2 * pi.dot(xx);
  s.variance = second - s.mean * s.mean;
  s.scv = s.variance / (s.mean * s.mean);
  const model::Matrix p = lu.solve(d1);
  model::Vector y = x;  // P^k (-D0)^-1 e
  const model::RowVector start = pi * lu.solve(model::Matrix::Identity(n, n));  // pi (-D0)^-1
  for (int k = 1; k <= lags; ++k) {
    y = p * y;
    s.lag_correlations.push_back((start.dot(y) - s.mean * s.mean) / s.variance);
  }
  return s;
}

double map_log_likelihood(const model::Matrix& d0, const model::Matrix& d1, const std::vector<std::vector<double>>& runs) {
  const model::RowVector pi = arrival_phases(d0, d1);
  double log_likelihood = 0;
  for (const auto& run : runs) {
    model::RowVector v = pi;
    for (const double x : run) {
      const model::Matrix step = (d0 * x).exp();
      v = v * step * d1;
      const double scale = v.sum();
      if (!(scale > 0)) return -std::numeric_limits<double>::infinity();
      log_likelihood += std::log(scale);
      v /= scale;
    }
  }
  return log_likelihood;
}

}  // namespace crawlq::fit
