#include "analytic/transient/transient_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/stationary/parallel_bicgstab.hpp"
#include "analytic/transient/krylov_propagation.hpp"
#include "analytic/transient/poisson_window.hpp"
#include "analytic/transient/transient_chain.hpp"
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

// One stretch of time on one chain, from p: for each offset (> 0, ascending) the sums of p there
// and of the integral of p up to it, and the vector at the stretch's end when asked. All offsets
// share one sequence p P^n (P = I + Q / q): each offset weighs it by its own Poisson law, so the
// products are those of the longest offset alone, however many times are reported.
struct Stretch {
  std::vector<TransientSums> at, area;
  double truncation_error = 0;
};

class StretchRunner {
 public:
  // `frozen`: how many states, from the first, make no move (the absorbing levels).
  StretchRunner(const TransientOptions& options, TransientResult& result, Eigen::Index frozen)
      : options_(options), result_(result), frozen_(frozen) {}

  // p becomes p(end) when `end` > 0 (and is left as it is otherwise).
  Stretch run(const TransientChain& chain, Eigen::VectorXd& p, const std::vector<double>& offsets,
              double end) {
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
      return out;
    }
    double longest = end;
    for (const double offset : offsets) longest = std::max(longest, offset);
    if (const int dimension = krylov_dimension(q * longest, chain.size()); dimension > 0) {
      run_krylov(chain, p, offsets, end, dimension, out);
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
    }
    Eigen::VectorXd v = p, step(p.size()), moving;
    for (std::size_t n = 0;; ++n) {
      const TransientSums now = chain.sums(v, options_.threads);
      for (std::size_t i = 0; i < windows.size(); ++i) {
        out.at[i].add(windows[i].weight_at(n), now);
        out.area[i].add(windows[i].beyond_at(n) / q, now);
      }
      if (end_window) at_end += end_window->weight_at(n) * v;
      if (n == last) break;
      if (options_.stop && options_.stop->load()) throw Cancelled();
      apply_moving(chain, v, step, moving);
      ++result_.products;
      // v P^(n+1) = v + v Q / q. Once v Q is negligible v is the chain's fixed point to that
      // precision: every later term is v, and the drift they would have had is bounded by
      // ||v Q / q|| times the jumps left.
      const double drift = advance(v, step, q, options_.threads);
      const double jumps_left = static_cast<double>(last - n);
      if (drift * jumps_left <= 0.1 * options_.tolerance) {
        const TransientSums fixed = chain.sums(v, options_.threads);
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
          double weight_left = end_window->omitted_weight;
          for (std::size_t k = n + 1; k <= end_window->last(); ++k)
            weight_left += end_window->weight_at(k);
          at_end += weight_left * v;
        }
        out.truncation_error += drift * jumps_left;
        break;
      }
    }
    if (end_window) p = at_end;
    return out;
  }

 private:
  // y = x Q with the frozen states' mass held where it is (their rows zero); `moving` is scratch.
  void apply_moving(const TransientChain& chain, const Eigen::VectorXd& x, Eigen::VectorXd& y,
                    Eigen::VectorXd& moving) const {
    if (frozen_ == 0) return chain.apply(x, y, options_.threads);
    moving = x;
    moving.head(frozen_).setZero();
    chain.apply(moving, y, options_.threads);
  }

  // The Krylov basis's dimension when the stretch takes that method, 0 when it takes
  // uniformisation (whose products number about `uniform_products`).
  int krylov_dimension(double uniform_products, Eigen::Index states) const {
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

  void run_krylov(const TransientChain& chain, Eigen::VectorXd& p,
                  const std::vector<double>& offsets, double end, int dimension, Stretch& out) {
    result_.method = TransientMethod::kKrylov;
    std::vector<double> times = offsets;
    if (end > 0) times.push_back(end);
    Eigen::VectorXd moving;
    const VectorProduct product = [&](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
      apply_moving(chain, x, y, moving);
    };
    Eigen::VectorXd at_end;
    const auto reached = [&](std::size_t i, const Eigen::VectorXd& at,
                             const Eigen::VectorXd& area) {
      if (i < offsets.size()) {
        out.at[i] = chain.sums(at, options_.threads);
        out.area[i] = chain.sums(area, options_.threads);
      } else {
        at_end = at;
      }
    };
    const double allowed = options_.most_products;
    const std::size_t left = allowed > 0
                                 ? static_cast<std::size_t>(std::max(
                                       1.0, allowed - static_cast<double>(result_.products)))
                                 : 0;
    try {
      const KrylovExponentialSummary summary = krylov_propagate(product, p, times,
                                                                {.dimension = dimension,
                                                                 .tolerance = options_.tolerance,
                                                                 .norm = 2 * chain.uniform_rate(),
                                                                 .conserves_sum = true,
                                                                 .threads = options_.threads,
                                                                 .stop = options_.stop,
                                                                 .most_products = left},
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

  const TransientOptions& options_;
  TransientResult& result_;
  Eigen::Index frozen_;
};

// The model during an outage: the service clock paused, everything else running.
model::Model with_indexer_stopped(const model::Model& model) {
  model::Model stopped = model;
  stopped.service = model.service.paused();
  return stopped;
}

// The states of levels 0..level, first in the chain's order.
Eigen::Index states_up_to(const TransientChain& chain, int level) {
  if (level < 0) return 0;
  const StateSpace& space = chain.space();
  return level >= space.capacity() ? space.size() : space.level_offset(level + 1);
}

TransientPoint point_at(double t, const TransientSums& now, const TransientSums& counts,
                        const model::Costs& costs) {
  TransientPoint point;
  point.t = t;
  point.level_probabilities = now.levels;
  point.mean_in_system = now.in_system;
  point.mean_in_queue = now.in_queue;
  point.mean_active_robots = now.robots;
  point.p_empty = now.levels.front();
  point.offered_rate = now.offered;
  point.loss_rate = now.lost;
  point.obsolescence_rate = now.obsolete;
  point.service_rate = now.served;
  point.offered = counts.offered;
  point.lost = counts.lost;
  point.obsolete = counts.obsolete;
  point.served = counts.served;
  point.cost_accumulated = costs.loss * counts.lost + costs.obsolescence * counts.obsolete +
                           costs.robot * counts.robots + costs.starvation * counts.levels.front() +
                           costs.holding * counts.in_system;
  return point;
}

}  // namespace

TransientResult transient_analysis(const model::Model& model, const model::ControlPolicy& policy,
                                   const Eigen::VectorXd& start, const TransientOptions& options) {
  const TransientChain serving(model, policy);
  std::optional<TransientChain> stopped;
  if (options.outage > 0) stopped.emplace(with_indexer_stopped(model), policy);
  if (start.size() != serving.size())
    throw std::invalid_argument("transient_analysis: the start is not over the chain's states");
  TransientResult result;
  result.states = serving.size();
  StretchRunner runner(options, result, states_up_to(serving, options.absorbing_level));
  const std::size_t levels = static_cast<std::size_t>(model.capacity) + 1;
  Eigen::VectorXd p = start;
  // The times in the outage (offsets from 0) and after it (offsets from D); D itself ends the
  // outage's stretch, whose integral up to D every later count starts from.
  std::vector<double> during, after;
  for (const double t : options.times) {
    if (t < options.outage)
      during.push_back(t);
    else
      after.push_back(t - options.outage);
  }
  TransientSums outage_total(levels);
  std::vector<TransientPoint> points;
  if (stopped) {
    std::vector<double> offsets;
    for (const double t : during)
      if (t > 0) offsets.push_back(t);
    offsets.push_back(options.outage);
    const Stretch s = runner.run(*stopped, p, offsets, after.empty() ? 0.0 : options.outage);
    result.truncation_error += s.truncation_error;
    std::size_t k = 0;
    for (const double t : during) {
      if (t > 0) {
        points.push_back(point_at(t, s.at[k], s.area[k], model.costs));
        ++k;
      } else {
        points.push_back(point_at(0, stopped->sums(start), TransientSums(levels), model.costs));
      }
    }
    outage_total = s.area.back();
  }
  if (!after.empty()) {
    std::vector<double> offsets;
    for (const double offset : after)
      if (offset > 0) offsets.push_back(offset);
    const Stretch s = runner.run(serving, p, offsets, 0.0);
    result.truncation_error += s.truncation_error;
    const TransientSums at_start = serving.sums(p);
    std::size_t k = 0;
    for (const double offset : after) {
      TransientSums counts = outage_total;
      if (offset > 0) {
        counts.add(1, s.area[k]);
        points.push_back(point_at(offset + options.outage, s.at[k], counts, model.costs));
        ++k;
      } else {
        points.push_back(point_at(options.outage, at_start, counts, model.costs));
      }
    }
  }
  result.points = std::move(points);
  return result;
}

DrainResult drain_analysis(const model::Model& model, const model::ControlPolicy& policy,
                           const Eigen::VectorXd& start, int level,
                           const TransientOptions& options) {
  DrainResult drain;
  drain.level = level;
  TransientOptions absorbing = options;
  absorbing.absorbing_level = level;
  if (!options.times.empty()) {
    const TransientResult curve = transient_analysis(model, policy, start, absorbing);
    for (const TransientPoint& point : curve.points) {
      double drained = 0;
      for (int i = 0; i <= level && i < static_cast<int>(point.level_probabilities.size()); ++i)
        drained += point.level_probabilities[static_cast<std::size_t>(i)];
      drain.cdf.push_back(std::min(1.0, drained));
    }
    drain.truncation_error = curve.truncation_error;
  }
  // E[tau] = integral of P(tau > t): over the outage by uniformisation (the chain changes at D),
  // then p_T (-Q_TT)^{-1} e from the state at D, T the states above `level`.
  const TransientChain serving(model, policy);
  const Eigen::Index frozen = states_up_to(serving, level);
  Eigen::VectorXd p = start;
  double before = 0;
  if (options.outage > 0) {
    const TransientChain stopped(with_indexer_stopped(model), policy);
    TransientResult unused;
    StretchRunner runner(absorbing, unused, frozen);
    const Stretch s = runner.run(stopped, p, {options.outage}, options.outage);
    // The time spent above `level` during the outage: the integral of the mass there.
    for (std::size_t i = static_cast<std::size_t>(level) + 1; i < s.area[0].levels.size(); ++i)
      before += s.area[0].levels[i];
    drain.truncation_error += s.truncation_error;
  }
  Eigen::VectorXd b = p;
  b.head(frozen).setZero();
  if (b.sum() <= 0) {
    drain.mean = before;
    return drain;
  }
  // (-Q_TT)^T x = p_T on T, x = 0 on the absorbing states (an identity block there).
  Eigen::VectorXd scratch(p.size()), inverse_diagonal(p.size());
  const Eigen::VectorXd& diagonal = serving.diagonal();
  for (Eigen::Index i = 0; i < p.size(); ++i)
    inverse_diagonal(i) = i < frozen || diagonal(i) == 0 ? 1.0 : -1.0 / diagonal(i);
  const LinearOperator minus_q_tt = [&](const double* x, double* y) {
    scratch = Eigen::Map<const Eigen::VectorXd>(x, p.size());
    scratch.head(frozen).setZero();
    Eigen::VectorXd product(p.size());
    serving.apply(scratch, product, options.threads);
    Eigen::Map<Eigen::VectorXd> out(y, p.size());
    out = -product;
    out.head(frozen) = Eigen::Map<const Eigen::VectorXd>(x, frozen);
  };
  Eigen::VectorXd x = Eigen::VectorXd::Zero(p.size());
  const KrylovSummary solved =
      parallel_bicgstab(minus_q_tt, inverse_diagonal, b, x,
                        {.tolerance = 1e-12, .threads = options.threads, .stop = options.stop});
  if (solved.cancelled) throw Cancelled();
  if (!solved.converged)
    throw std::runtime_error(fmt::format(
        "the mean time to drain did not converge (relative residual {:.1e} after {} iterations)",
        solved.relative_residual, solved.iterations));
  drain.iterations = solved.iterations;
  drain.residual = solved.relative_residual;
  drain.mean = before + x.tail(x.size() - frozen).sum();
  return drain;
}

}  // namespace crawlq::analytic
