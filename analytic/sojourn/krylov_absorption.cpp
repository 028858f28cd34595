#include "analytic/sojourn/krylov_absorption.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <unsupported/Eigen/MatrixFunctions>

#include "analytic/transient/krylov_propagation.hpp"

namespace crawlq::analytic {

int KrylovAbsorption::dimension_for(const TaggedPageChain& chain) {
  return std::min(kAbsorptionKrylovDimension,
                  krylov_dimension_within(chain.size() + 2, kAbsorptionKrylovBytes));
}

KrylovAbsorption::KrylovAbsorption(const TaggedPageChain& chain, const Eigen::RowVectorXd& start,
                                   double horizon, double tolerance, std::size_t most_products,
                                   const std::atomic<bool>* stop)
    : chain_(chain),
      state_(Eigen::VectorXd::Zero(chain.size() + 2)),
      horizon_(horizon),
      tolerance_rate_(tolerance / horizon),
      most_products_(most_products),
      stop_(stop),
      dimension_(dimension_for(chain)) {
  if (!(horizon > 0) || !(tolerance > 0))
    throw std::invalid_argument("KrylovAbsorption: the horizon and tolerance must be positive");
  state_.head(chain.size()) = start.transpose();
}

void KrylovAbsorption::step_to(double until, double asked) {
  if (dimension_ < 1) throw std::invalid_argument("the chain is too large for Krylov steps");
  const Eigen::Index n = chain_.size(), in_service = chain_.waiting_offset(0);
  const int most_ahead = chain_.max_pages_ahead();
  // The transient part moves by T's transpose; each fate's state gains what its exits carry.
  const VectorProduct product = [&](const Eigen::VectorXd& x, Eigen::VectorXd& y, int threads) {
    chain_.subgenerator().left_multiply(x.data(), y.data(), most_ahead, threads);
    y(n) = x.head(in_service).dot(chain_.served_exit().head(in_service));
    y(n + 1) = x.head(n).dot(chain_.obsolete_exit());
  };
  const double from = reached_;
  double stepped = from;
  const auto keep_step = [&](const KrylovStep& step) {
    const Eigen::Index k = step.hessenberg.rows();
    Step kept{.start = from + step.start,
              .end = from + step.start + step.length,
              .beta = step.beta,
              .hessenberg = step.hessenberg,
              .served = Eigen::VectorXd(k),
              .obsolete = Eigen::VectorXd(k),
              .settled = {}};
    for (Eigen::Index j = 0; j < k; ++j) {
      kept.served(j) = step.basis[static_cast<std::size_t>(j)](n);
      kept.obsolete(j) = step.basis[static_cast<std::size_t>(j)](n + 1);
    }
    stepped = kept.end;
    steps_.push_back(std::move(kept));
  };
  const auto reached = [&](std::size_t, const Eigen::VectorXd& at, const Eigen::VectorXd&) {
    state_ = at;
  };
  const double length = until - from;
  KrylovExponentialOptions options{.dimension = dimension_,
                                   // The share of the tolerance that the stretch's length gives.
                                   .tolerance = tolerance_rate_ * length,
                                   .norm = 2 * chain_.max_exit_rate(),
                                   .conserves_sum = true,
                                   .threads = chain_.threads(),
                                   .stop = stop_,
                                   .most_products = 0,
                                   .on_step = keep_step};
  const auto refusal = [&] {
    return std::invalid_argument(fmt::format(
        "x = {:.6g} needs more than {} products of Krylov steps and the sojourn has not "
        "ended by then",
        asked, most_products_));
  };
  if (most_products_ > 0) {
    if (products_ >= most_products_) throw refusal();
    options.most_products = most_products_ - products_;
  }
  // A stretch cut short (past the budget, or cancelled) keeps none of its steps: the steps kept
  // always run from 0 to reached_ in order, and the state is still reached_'s.
  const auto kept_before = static_cast<std::ptrdiff_t>(steps_.size());
  const auto drop_stretch = [&] { steps_.erase(steps_.begin() + kept_before, steps_.end()); };
  KrylovExponentialSummary summary;
  try {
    summary = krylov_propagate(product, state_, {length}, options, reached);
  } catch (const KrylovWorkExceeded&) {
    drop_stretch();
    products_ = most_products_;  // spent: every later stretch is refused at once
    throw refusal();
  } catch (...) {
    drop_stretch();
    throw;
  }
  products_ += summary.products;
  // Short of `until`, the steps stopped at the fixed point: the masses stay where they are.
  if (stepped < until)
    steps_.push_back({.start = stepped,
                      .end = until,
                      .beta = 0,
                      .hessenberg = {},
                      .served = {},
                      .obsolete = {},
                      .settled = {state_(n), state_(n + 1)}});
  reached_ = until;
}

std::array<double, 2> KrylovAbsorption::absorbed(double x) {
  if (x <= 0) return {0.0, 0.0};
  if (x > reached_) step_to(std::max(x, reached_ + horizon_), x);
  // The step whose span holds x: the last that starts before it.
  const auto after = std::upper_bound(steps_.begin(), steps_.end(), x,
                                      [](double t, const Step& step) { return t < step.start; });
  const Step& step = *(after - 1);
  if (step.hessenberg.size() == 0) return step.settled;
  const Eigen::MatrixXd exponential = ((x - step.start) * step.hessenberg).exp();
  return {step.beta * step.served.dot(exponential.col(0)),
          step.beta * step.obsolete.dot(exponential.col(0))};
}

}  // namespace crawlq::analytic
