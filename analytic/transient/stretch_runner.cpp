#include "analytic/transient/stretch_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "analytic/adaptive_threads.hpp"
#include "analytic/control/policy_evaluation.hpp"
#include "analytic/transient/krylov_propagation.hpp"
#include "analytic/transient/poisson_window.hpp"
#include "analytic/transient/vector_blocks.hpp"

namespace crawlq::analytic {

namespace {

// v += step / q in one pass over both, on threads, giving ||step||_1 / q (the same bits for any
// thread count).
double advance(Eigen::VectorXd& v, const Eigen::VectorXd& step, double q, int threads) {
  const double scale = 1 / q;
  const double norm =
      sum_vector_blocks(v.size(), threads, [&](Eigen::Index begin, Eigen::Index length) {
        v.segment(begin, length) += scale * step.segment(begin, length);
        return step.segment(begin, length).lpNorm<1>();
      });
  return norm / q;
}

}  // namespace

Stretch StretchRunner::run(const TransientChain& chain, Eigen::VectorXd& p,
                           const std::vector<double>& offsets, double end,
                           Eigen::VectorXd* area_at_end) {
  const std::size_t levels = static_cast<std::size_t>(chain.space().capacity()) + 1;
  Stretch out;
  out.at.assign(offsets.size(), TransientSums(levels));
  out.area.assign(offsets.size(), TransientSums(levels));
  const double q = chain.uniform_rate();
  if (q <= 0) {  // nothing moves
    const TransientSums now = chain.sums(p);
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      out.at[i].add(1, now);
      out.area[i].add(offsets[i], now);
    }
    if (area_at_end && end > 0) *area_at_end = end * p;
    return out;
  }
  double longest = end;
  for (const double offset : offsets) longest = std::max(longest, offset);
  if (const int dimension = krylov_dimension(q * longest, chain.size()); dimension > 0) {
    run_krylov(chain, p, offsets, end, dimension, out, area_at_end);
    return out;
  }
  // The products come to about q t plus a tail of some standard deviations: judged before any
  // window is made (a window holds a weight per product).
  const double needed =
      static_cast<double>(result_.products) + q * longest + 10 * std::sqrt(q * longest) + 10;
  if (options_.most_products > 0 && needed > options_.most_products)
    throw TooMuchTransientWork(needed, options_.most_products);
  std::vector<PoissonWindow> windows;
  std::size_t last = 0;
  for (const double offset : offsets) {
    windows.push_back(poisson_window(q * offset, options_.tolerance));
    last = std::max(last, windows.back().last());
    out.truncation_error = std::max(out.truncation_error, windows.back().omitted_weight);
  }
  std::optional<PoissonWindow> end_window;
  Eigen::VectorXd at_end;
  if (end > 0) {
    end_window = poisson_window(q * end, options_.tolerance);
    last = std::max(last, end_window->last());
    out.truncation_error = std::max(out.truncation_error, end_window->omitted_weight);
    at_end = Eigen::VectorXd::Zero(p.size());
    if (area_at_end) *area_at_end = Eigen::VectorXd::Zero(p.size());
  }
  Eigen::VectorXd v = p, step(p.size()), moving;
  AdaptiveThreads adaptive(options_.threads);
  for (std::size_t n = 0;; ++n) {
    const int threads = adaptive.next_step();
    if (!windows.empty()) {  // a stretch that reports only its end skips the sums
      const TransientSums now = chain.sums(v, threads);
      for (std::size_t i = 0; i < windows.size(); ++i) {
        out.at[i].add(windows[i].weight_at(n), now);
        out.area[i].add(windows[i].beyond_at(n) / q, now);
      }
    }
    if (end_window) {
      at_end += end_window->weight_at(n) * v;
      if (area_at_end) *area_at_end += (end_window->beyond_at(n) / q) * v;
    }
    if (n == last) break;
    if (options_.stop && options_.stop->load()) throw Cancelled();
    apply_moving(chain, v, step, moving, threads);
    ++result_.products;
    // v P^(n+1) = v + v Q / q. Once v Q is negligible v is the chain's fixed point to that
    // precision: every later term is v, and the drift they would have had is bounded by
    // ||v Q / q|| times the jumps left.
    const double drift = advance(v, step, q, threads);
    const double jumps_left = static_cast<double>(last - n);
    if (drift * jumps_left <= 0.1 * options_.tolerance) {
      const TransientSums fixed = windows.empty() ? TransientSums() : chain.sums(v, threads);
      for (std::size_t i = 0; i < windows.size(); ++i) {
        double weight_left = windows[i].omitted_weight, beyond_left = windows[i].omitted_beyond;
        for (std::size_t k = n + 1; k <= windows[i].last(); ++k) {
          weight_left += windows[i].weight_at(k);
          beyond_left += windows[i].beyond_at(k);
        }
        out.at[i].add(weight_left, fixed);
        out.area[i].add(beyond_left / q, fixed);
      }
      if (end_window) {
        double weight_left = end_window->omitted_weight, beyond_left = end_window->omitted_beyond;
        for (std::size_t k = n + 1; k <= end_window->last(); ++k) {
          weight_left += end_window->weight_at(k);
          beyond_left += end_window->beyond_at(k);
        }
        at_end += weight_left * v;
        if (area_at_end) *area_at_end += (beyond_left / q) * v;
      }
      out.truncation_error += drift * jumps_left;
      break;
    }
  }
  if (end_window) p = at_end;
  return out;
}

void StretchRunner::apply_moving(const TransientChain& chain, const Eigen::VectorXd& x,
                                 Eigen::VectorXd& y, Eigen::VectorXd& moving, int threads) const {
  if (frozen_ == 0) return chain.apply(x, y, threads);
  moving = x;
  moving.head(frozen_).setZero();
  chain.apply(moving, y, threads);
}

int StretchRunner::krylov_dimension(double uniform_products, Eigen::Index states) const {
  const int fits = std::min(kKrylovDimension, krylov_dimension_within(states, kKrylovBytes));
  switch (options_.method) {
    case TransientMethod::kUniformisation:
      return 0;
    case TransientMethod::kKrylov:
      if (fits < 2)
        throw std::length_error(
            fmt::format("a Krylov basis over {} states does not fit in {:.0f} GiB", states,
                        kKrylovBytes / (1 << 30)));
      return fits;
    case TransientMethod::kAuto:
      break;
  }
  return uniform_products > kKrylovAbove && fits >= 10 ? fits : 0;
}

void StretchRunner::run_krylov(const TransientChain& chain, Eigen::VectorXd& p,
                               const std::vector<double>& offsets, double end, int dimension,
                               Stretch& out, Eigen::VectorXd* area_at_end) {
  result_.method = TransientMethod::kKrylov;
  std::vector<double> times = offsets;
  if (end > 0) times.push_back(end);
  Eigen::VectorXd moving;
  const VectorProduct product = [&](const Eigen::VectorXd& x, Eigen::VectorXd& y, int threads) {
    apply_moving(chain, x, y, moving, threads);
  };
  Eigen::VectorXd at_end;
  const auto reached = [&](std::size_t i, const Eigen::VectorXd& at, const Eigen::VectorXd& area) {
    if (i < offsets.size()) {
      out.at[i] = chain.sums(at, options_.threads);
      out.area[i] = chain.sums(area, options_.threads);
    } else {
      at_end = at;
      if (area_at_end) *area_at_end = area;
    }
  };
  const double allowed = options_.most_products;
  const std::size_t left =
      allowed > 0
          ? static_cast<std::size_t>(std::max(1.0, allowed - static_cast<double>(result_.products)))
          : 0;
  try {
    const KrylovExponentialSummary summary = krylov_propagate(product, p, times,
                                                              {.dimension = dimension,
                                                               .tolerance = options_.tolerance,
                                                               .norm = 2 * chain.uniform_rate(),
                                                               .conserves_sum = true,
                                                               .threads = options_.threads,
                                                               .stop = options_.stop,
                                                               .most_products = left,
                                                               .on_step = {}},
                                                              reached);
    result_.products += summary.products;
    out.truncation_error = summary.error_estimate;
  } catch (const KrylovWorkExceeded& exceeded) {
    // What the whole horizon would take, at the pace reached so far.
    const double horizon = times.empty() ? 0 : times.back();
    const double pace = exceeded.reached > 0 ? horizon / exceeded.reached : 1e6;
    throw TooMuchTransientWork(allowed * std::max(pace, 1.0 + 1e-9), allowed);
  }
  if (end > 0) p = std::move(at_end);
}

}  // namespace crawlq::analytic
