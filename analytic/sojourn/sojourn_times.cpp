#include "analytic/sojourn/sojourn_times.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analytic/cancelled.hpp"

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
// The entries of one piece of the sweeps after each product.
constexpr Eigen::Index kPieceEntries = Eigen::Index{1} << 14;
// The Krylov steps' error bound, relative to the least likely fate's probability: below the
// quantiles' 1e-10.
constexpr double kKrylovTolerance = 1e-12;
// The Krylov steps' products, at most: past them the quantiles are refused, as past kMostJumps.
constexpr std::size_t kMostKrylovProducts = 1'000'000;

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

double SojournTimes::farthest_reach(std::size_t terms) const {
  // poisson_terms(mean) >= mean + 2 and grows with the mean: bisection on [0, terms].
  double low = 0, high = static_cast<double>(terms);
  if (poisson_terms(0) > terms) return 0;
  for (int i = 0; i < 60 && high - low > 1e-12 * high; ++i) {
    const double middle = 0.5 * (low + high);
    (poisson_terms(middle) <= terms ? low : high) = middle;
  }
  return low / uniformisation_rate_;
}

SojournTimes::SojournTimes(const TaggedPageChain& chain, Eigen::RowVectorXd start)
    : chain_(chain),
      start_(std::move(start)),
      uniformisation_rate_(std::max(chain.max_exit_rate(), 1e-300)),
      power_(start_),
      most_ahead_(chain.max_pages_ahead()),
      threads_(chain.threads()) {
  // The third moments (the standard deviations) on first use: the chain solves them only then.
  take_moments(0);
  take_moments(1);
  for (PageFate fate : {PageFate::kServed, PageFate::kObsolete})
    if (probability(fate) > 0) least_likely_ = std::min(least_likely_, probability(fate));
  // Each block in pieces of its own, so that a block's mass is the sum of its pieces'.
  for (int ahead = -1; ahead <= chain_.max_pages_ahead(); ++ahead) {
    const Eigen::Index end = chain_.subgenerator().offset(ahead + 1);
    for (Eigen::Index from = chain_.subgenerator().offset(ahead); from < end; from += kPieceEntries)
      pieces_.push_back({from, std::min(end, from + kPieceEntries), ahead});
  }
  obsolete_parts_.resize(pieces_.size());
  mass_parts_.resize(pieces_.size());
  sweep(false, threads_.next_step());  // the first step: the cores' verdict holds here too
  drop_negligible_blocks();
}

void SojournTimes::sweep(bool add_product, int threads) const {
  const double q = uniformisation_rate_;
  std::size_t used = 0;  // the pieces of the active blocks: a prefix
  while (used < pieces_.size() && pieces_[used].ahead <= most_ahead_) ++used;
  double* power = power_.data();
  const double* product = product_.data();
  const double* obsolete = chain_.obsolete_exit().data();
  const auto piece = [&](std::size_t i) {
    double exits = 0, mass = 0;
    for (Eigen::Index s = pieces_[i].begin; s < pieces_[i].end; ++s) {
      if (add_product) power[s] += product[s] / q;
      exits += power[s] * obsolete[s];
      mass += std::abs(power[s]);
    }
    obsolete_parts_[i] = exits;
    mass_parts_[i] = mass;
  };
  if (threads > 1 && used > 8) {
#pragma omp parallel for num_threads(threads) schedule(dynamic)
    for (std::size_t i = 0; i < used; ++i) piece(i);
  } else {
    for (std::size_t i = 0; i < used; ++i) piece(i);
  }
}

void SojournTimes::drop_negligible_blocks() const {
  // The pieces go block by block in order, so a block's are found by bisection: a scan of every
  // piece for each block dropped cost K^2 with a long buffer (8 s at K = 100,000).
  const auto at_most = [](int ahead) {
    return [ahead](const Piece& p) { return p.ahead <= ahead; };
  };
  auto end = std::partition_point(pieces_.begin(), pieces_.end(), at_most(most_ahead_));
  for (; most_ahead_ >= 0; --most_ahead_) {
    const auto first = std::partition_point(pieces_.begin(), end, at_most(most_ahead_ - 1));
    // The blocks above were dropped already: only this one is summed, piece by piece in order.
    double mass = 0;
    for (auto piece = first; piece != end; ++piece)
      mass += mass_parts_[static_cast<std::size_t>(piece - pieces_.begin())];
    if (mass >= kNegligibleMass * least_likely_) return;
    power_
        .segment(chain_.waiting_offset(most_ahead_), chain_.subgenerator().block_size(most_ahead_))
        .setZero();
    end = first;
  }
}

void SojournTimes::take_moments(int k) const {
  const double served = chain_.moment_from(start_, PageFate::kServed, k);
  const double obsolete = chain_.moment_from(start_, PageFate::kObsolete, k);
  moments_[static_cast<int>(PageFate::kServed)][k] = served;
  moments_[static_cast<int>(PageFate::kObsolete)][k] = obsolete;
  moments_[static_cast<int>(PageFate::kAccepted)][k] = served + obsolete;  // as the chain sums it
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
  if (!third_moments_taken_) {
    take_moments(2);
    third_moments_taken_ = true;
  }
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
    if (stop_ && stop_->load()) throw Cancelled();
    // alpha P^n is zero past the active blocks: every sum and update stops there. The sums were
    // made piece by piece by the last sweep, and add up in the pieces' order whatever thread made
    // each: the same bits on any thread count.
    const double served = power_.head(m).dot(chain_.served_exit().head(m).transpose()) / q;
    double obsolete = 0;
    for (std::size_t i = 0; i < pieces_.size() && pieces_[i].ahead <= most_ahead_; ++i)
      obsolete += obsolete_parts_[i];
    obsolete /= q;
    terms_[static_cast<int>(PageFate::kServed)].push_back(served);
    terms_[static_cast<int>(PageFate::kObsolete)].push_back(obsolete);
    terms_[static_cast<int>(PageFate::kAccepted)].push_back(served + obsolete);
    // alpha P^{n+1} with P = I + T/q, and the next term's sums in the same pass.
    const int threads = threads_.next_step();
    chain_.subgenerator().left_multiply(power_.data(), product_.data(), most_ahead_, threads);
    sweep(true, threads);
    drop_negligible_blocks();
  }
}

double SojournTimes::reach() const {
  double reach = 0;
  for (PageFate fate : {PageFate::kServed, PageFate::kObsolete})
    if (probability(fate) > 0) reach = std::max(reach, mean(fate) + 10 * standard_deviation(fate));
  return reach;
}

LawMethod SojournTimes::law_method() const {
  if (method_ != LawMethod::kAutomatic) return method_;
  const bool fits = KrylovAbsorption::dimension_for(chain_) >= KrylovAbsorption::kLeastDimension;
  return fits && uniformisation_rate_ * reach() > kKrylovReach ? LawMethod::kKrylov
                                                               : LawMethod::kUniformisation;
}

double SojournTimes::joint_cdf(PageFate fate, double x) const {
  if (x <= 0) return 0.0;
  if (law_method() == LawMethod::kKrylov) {
    if (!krylov_)
      krylov_ = std::make_unique<KrylovAbsorption>(chain_, start_, std::max(reach(), 1e-300),
                                                   kKrylovTolerance * least_likely_,
                                                   kMostKrylovProducts, stop_);
    const std::array<double, 2> absorbed = krylov_->absorbed(x);
    switch (fate) {
      case PageFate::kServed:
        return absorbed[0];
      case PageFate::kObsolete:
        return absorbed[1];
      case PageFate::kAccepted:
        return absorbed[0] + absorbed[1];
    }
  }
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
  return p > 0 ? std::clamp(joint_cdf(fate, x) / p, 0.0, 1.0) : 0.0;
}

double SojournTimes::quantile(PageFate fate, double level) const {
  if (level <= 0 || level >= 1) throw std::invalid_argument("a quantile level must lie in (0, 1)");
  if (probability(fate) <= 0) return 0.0;
  double low = 0, high = std::max(mean(fate), 1e-12);
  if (law_method() == LawMethod::kUniformisation &&
      uniformisation_rate_ * reach() <= kShortcutJumps) {
    // A distribution function at x needs poisson_terms(q x) terms, a product each: the terms grow
    // a sixteenth at a time, each time to the farthest x they reach, so the bracket's top costs
    // at most that many products past the quantile's own (growing x by a quarter from the mean
    // cost up to a quarter more). Each try is a sum over the terms: past kShortcutJumps the tries
    // would cost more than the products they save.
    for (std::size_t terms = std::max<std::size_t>(terms_[0].size(), 16);;
         terms += std::max<std::size_t>(8, terms / 16)) {
      extend_terms(terms);
      const double x = farthest_reach(terms);
      if (x <= low) continue;
      if (cdf(fate, x) >= level) {
        high = x;
        break;
      }
      low = x;
    }
  } else {
    // Krylov steps: a distribution function within the steps taken is a small exponential.
    while (cdf(fate, high) < level) {
      low = high;
      high *= 1.25;
    }
  }
  while (high - low > 1e-10 * high) {
    const double middle = 0.5 * (low + high);
    (cdf(fate, middle) < level ? low : high) = middle;
  }
  return high;
}

}  // namespace crawlq::analytic
