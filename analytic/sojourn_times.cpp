#include "analytic/sojourn_times.hpp"

#include <Eigen/SparseLU>
#include <cmath>
#include <stdexcept>

namespace crawlq::analytic {

SojournTimes::SojournTimes(const TaggedPageChain& chain, Eigen::RowVectorXd start)
    : chain_(chain),
      start_(std::move(start)),
      uniformisation_rate_(std::max(chain.max_exit_rate(), 1e-300)),
      power_(start_) {}

double SojournTimes::probability(PageFate fate) const {
  return start_.dot(chain_.moment_vector(fate, 0));
}

double SojournTimes::mean(PageFate fate) const {
  const double p = probability(fate);
  return p > 0 ? start_.dot(chain_.moment_vector(fate, 1)) / p : 0.0;
}

double SojournTimes::standard_deviation(PageFate fate) const {
  const double p = probability(fate);
  if (p <= 0) return 0.0;
  const double m = mean(fate);
  const double second = 2.0 * start_.dot(chain_.moment_vector(fate, 2)) / p;
  return std::sqrt(std::max(second - m * m, 0.0));
}

double SojournTimes::transform(PageFate fate, double u) const {
  const double p = probability(fate);
  if (p <= 0) return 1.0;
  if (u == 0) return 1.0;
  if (u < 0) throw std::invalid_argument("the Laplace-Stieltjes transform needs u >= 0");
  // v(u) = alpha (uI - T)^{-1} t / P(fate): the probability that no catastrophe of rate u arrives.
  Eigen::SparseMatrix<double> shifted = -chain_.subgenerator();
  for (Eigen::Index i = 0; i < shifted.rows(); ++i) shifted.coeffRef(i, i) += u;
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(shifted);
  return start_.dot(lu.solve(chain_.exit(fate))) / p;
}

void SojournTimes::extend_terms(std::size_t count) const {
  const Eigen::SparseMatrix<double>& t = chain_.subgenerator();
  const double q = uniformisation_rate_;
  while (terms_[0].size() < count) {
    for (PageFate fate : {PageFate::kAccepted, PageFate::kServed, PageFate::kObsolete})
      terms_[static_cast<int>(fate)].push_back(power_.dot(chain_.exit(fate)) / q);
    power_ = power_ + (power_ * t) / q;  // alpha P^{n+1} with P = I + T/q
  }
}

double SojournTimes::joint_cdf(PageFate fate, double x) const {
  if (x <= 0) return 0.0;
  const double mean_jumps = uniformisation_rate_ * x;
  // Poisson terms beyond mean + 12 sd (+ a margin for small means) weigh less than 1e-30.
  const auto count = static_cast<std::size_t>(mean_jumps + 12.0 * std::sqrt(mean_jumps) + 40.0);
  extend_terms(count);
  // sum_n P(N > n) term_n, with P(N > n) accumulated from the far tail for accuracy.
  std::vector<double> pmf(count);
  for (std::size_t n = 0; n < count; ++n)
    pmf[n] = std::exp(-mean_jumps + n * std::log(mean_jumps) - std::lgamma(n + 1.0));
  double tail = 0, sum = 0;
  const auto& terms = terms_[static_cast<int>(fate)];
  for (std::size_t n = count; n-- > 0;) {
    sum += tail * terms[n];  // tail = P(N > n)
    tail += pmf[n];
  }
  return sum;
}

double SojournTimes::cdf(PageFate fate, double x) const {
  const double p = probability(fate);
  return p > 0 ? std::min(1.0, joint_cdf(fate, x) / p) : 0.0;
}

double SojournTimes::quantile(PageFate fate, double level) const {
  if (level <= 0 || level >= 1) throw std::invalid_argument("a quantile level must lie in (0, 1)");
  if (probability(fate) <= 0) return 0.0;
  double low = 0, high = std::max(mean(fate), 1e-12);
  while (cdf(fate, high) < level) {
    low = high;
    high *= 2;
  }
  while (high - low > 1e-10 * high) {
    const double middle = 0.5 * (low + high);
    (cdf(fate, middle) < level ? low : high) = middle;
  }
  return high;
}

}  // namespace crawlq::analytic
