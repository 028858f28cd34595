#include "analytic/sojourn/sojourn_times.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace crawlq::analytic {

namespace {
// Above this many expected jumps, look for the point where the sojourn has surely ended.
constexpr double kShortcutJumps = 1e5;
// More terms than this would take minutes (a product with T each): refuse instead.
constexpr double kMostJumps = 2e7;
// Relative to the least likely fate, the mass below which a block of alpha P^n is dropped: each
// drop changes a distribution function by at most this, relatively, and there are at most K - 1 of
// them, far below the quantiles' 1e-10; the top blocks are most of each product's work.
constexpr double kNegligibleMass = 1e-15;
// The Poisson tail beyond the last term: each distribution function is then exact to this,
// relatively (the terms of a fate sum to its probability).
constexpr double kPoissonTail = 1e-17;

// The number of terms n with P(Poisson(mean) > n) < kPoissonTail: from the mode up, until the tail
// (bounded by a geometric series once the ratio of successive terms is below one) is small enough.
std::size_t poisson_terms(double mean) {
  double n = std::floor(mean);
  double pmf = std::exp(-mean + n * std::log(std::max(mean, 1e-300)) - std::lgamma(n + 1.0));
  for (;; n += 1) {
    const double ratio = mean / (n + 1.0);
    if (ratio < 1 && pmf * ratio / (1 - ratio) < kPoissonTail) break;
    pmf *= ratio;
  }
  return static_cast<std::size_t>(n) + 2;
}
}  // namespace

SojournTimes::SojournTimes(const TaggedPageChain& chain, Eigen::RowVectorXd start)
    : chain_(chain),
      start_(std::move(start)),
      uniformisation_rate_(std::max(chain.max_exit_rate(), 1e-300)),
      power_(start_),
      most_ahead_(chain.max_pages_ahead()) {
  for (const PageFate fate : {PageFate::kAccepted, PageFate::kServed, PageFate::kObsolete})
    for (int k = 0; k < 3; ++k)
      moments_[static_cast<int>(fate)][k] = start_.dot(chain_.moment_vector(fate, k));
  double least_likely = 1;
  for (PageFate fate : {PageFate::kServed, PageFate::kObsolete})
    if (probability(fate) > 0) least_likely = std::min(least_likely, probability(fate));
  negligible_ = kNegligibleMass * least_likely;
  drop_negligible_blocks();
}

void SojournTimes::drop_negligible_blocks() const {
  for (; most_ahead_ >= 0; --most_ahead_) {
    // The blocks above were dropped already: only this one is summed.
    auto block = power_.segment(chain_.waiting_offset(most_ahead_),
                                chain_.subgenerator().block_size(most_ahead_));
    if (block.cwiseAbs().sum() >= negligible_) return;
    block.setZero();
  }
}

double SojournTimes::probability(PageFate fate) const {
  return moments_[static_cast<int>(fate)][0];
}

double SojournTimes::mean(PageFate fate) const {
  const double p = probability(fate);
  return p > 0 ? moments_[static_cast<int>(fate)][1] / p : 0.0;
}

double SojournTimes::standard_deviation(PageFate fate) const {
  const double p = probability(fate);
  if (p <= 0) return 0.0;
  const double m = mean(fate);
  const double second = 2.0 * moments_[static_cast<int>(fate)][2] / p;
  return std::sqrt(std::max(second - m * m, 0.0));
}

double SojournTimes::transform(PageFate fate, double u) const {
  const double p = probability(fate);
  if (p <= 0) return 1.0;
  if (u == 0) return 1.0;
  if (u < 0) throw std::invalid_argument("the Laplace-Stieltjes transform needs u >= 0");
  // v(u) = alpha (uI - T)^{-1} t / P(fate): the probability that no catastrophe of rate u arrives.
  return start_.dot(chain_.resolvent(chain_.exit(fate), u)) / p;
}

void SojournTimes::extend_terms(std::size_t count) const {
  const double q = uniformisation_rate_;
  const Eigen::Index m = chain_.waiting_offset(0);  // only the in-service states complete service
  if (product_.size() != power_.size()) product_.resize(power_.size());
  while (terms_[0].size() < count) {
    // alpha P^n is zero past the active blocks: every sum and update stops there.
    const Eigen::Index active = most_ahead_ < chain_.max_pages_ahead()
                                    ? chain_.waiting_offset(most_ahead_ + 1)
                                    : power_.size();
    const double served = power_.head(m).dot(chain_.served_exit().head(m).transpose()) / q;
    const double obsolete =
        power_.head(active).dot(chain_.obsolete_exit().head(active).transpose()) / q;
    terms_[static_cast<int>(PageFate::kServed)].push_back(served);
    terms_[static_cast<int>(PageFate::kObsolete)].push_back(obsolete);
    terms_[static_cast<int>(PageFate::kAccepted)].push_back(served + obsolete);
    // alpha P^{n+1} with P = I + T/q.
    chain_.subgenerator().left_multiply(power_.data(), product_.data(), most_ahead_,
                                        chain_.threads());
    power_.head(active) += product_.head(active) / q;
    drop_negligible_blocks();
  }
}

double SojournTimes::joint_cdf(PageFate fate, double x) const {
  if (x <= 0) return 0.0;
  const double mean_jumps = uniformisation_rate_ * x;
  // Far out, every page has left long before: once alpha P^n has lost all but 1e-17 of its mass
  // (it is the chance of more than n jumps inside the system) and N(x) < n has a chance below
  // 1e-30, the sum is P(fate) itself, and the Poisson sum of ~qx terms need not be formed.
  const double spread = 12.0 * std::sqrt(mean_jumps) + 40.0;
  const std::size_t count = poisson_terms(mean_jumps);
  if (mean_jumps > kShortcutJumps) {
    const auto within = static_cast<std::size_t>(std::min(mean_jumps - spread, kMostJumps));
    while (terms_[0].size() < within && power_.sum() > 1e-17)
      extend_terms(std::min(within, 2 * terms_[0].size() + 64));
    if (power_.sum() <= 1e-17 && static_cast<double>(terms_[0].size()) < mean_jumps - spread)
      return probability(fate);
    if (mean_jumps > kMostJumps)
      throw std::invalid_argument(fmt::format(
          "x = {:.6g} needs more than {:.0e} uniformisation terms and the sojourn has not ended by then",
          x, kMostJumps));
  }
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
  // Each distribution function needs terms up to about q x, so the bracket grows in small steps:
  // an overshoot costs products with T, a step only a sum over terms already made.
  double low = 0, high = std::max(mean(fate), 1e-12);
  while (cdf(fate, high) < level) {
    low = high;
    high *= 1.25;
  }
  while (high - low > 1e-10 * high) {
    const double middle = 0.5 * (low + high);
    (cdf(fate, middle) < level ? low : high) = middle;
  }
  return high;
}

}  // namespace crawlq::analytic
