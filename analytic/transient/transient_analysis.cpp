#include "analytic/transient/transient_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/stationary/parallel_bicgstab.hpp"
#include "analytic/transient/poisson_window.hpp"
#include "analytic/transient/transient_chain.hpp"

namespace crawlq::analytic {

namespace {

// Uniformisation over one stretch of length `span` on one chain: p becomes p(span) and `area`
// gains the integral of p over the stretch.
class Stepper {
 public:
  // `frozen`: how many states, from the first, make no move (the absorbing levels).
  Stepper(const TransientOptions& options, TransientResult& result, Eigen::Index frozen = 0)
      : options_(options), result_(result), frozen_(frozen) {}

  void advance(const TransientChain& chain, Eigen::VectorXd& p, Eigen::VectorXd& area,
               double span) {
    const double q = chain.uniform_rate();
    if (span <= 0) return;
    if (q <= 0) {  // nothing moves
      area += span * p;
      return;
    }
    const PoissonWindow w = poisson_window(q * span, options_.tolerance);
    Eigen::VectorXd v = p, step(p.size()), moving, at_end = Eigen::VectorXd::Zero(p.size()),
                    integral = Eigen::VectorXd::Zero(p.size());
    double omitted = w.omitted_weight;
    for (std::size_t n = 0;; ++n) {
      at_end += w.weight[n] * v;
      integral += w.beyond[n] * v;
      if (n == w.last()) break;
      if (options_.stop && options_.stop->load()) throw Cancelled();
      if (frozen_ > 0) {
        moving = v;
        moving.head(frozen_).setZero();
        chain.apply(moving, step, options_.threads);
      } else {
        chain.apply(v, step, options_.threads);
      }
      ++result_.products;
      // v P^(n+1) = v + v Q / q. Once v Q is negligible v is the chain's fixed point to that
      // precision: the remaining terms are all v, and the drift they would have had is bounded by
      // ||v Q / q|| times the jumps left (on average the mean less n).
      const double drift = step.lpNorm<1>() / q;
      v += step / q;
      const double jumps_left = std::max(1.0, q * span - static_cast<double>(n));
      if (drift * jumps_left <= 0.1 * options_.tolerance) {
        double weight_left = w.omitted_weight, beyond_left = w.omitted_beyond;
        for (std::size_t k = n + 1; k <= w.last(); ++k) {
          weight_left += w.weight[k];
          beyond_left += w.beyond[k];
        }
        at_end += weight_left * v;
        integral += beyond_left * v;
        omitted += drift * jumps_left;
        break;
      }
    }
    p = at_end;
    area += integral / q;
    result_.truncation_error += omitted;
  }

 private:
  const TransientOptions& options_;
  TransientResult& result_;
  Eigen::Index frozen_;
};

// The states of levels 0..level, first in the chain's order.
Eigen::Index states_up_to(const TransientChain& chain, int level) {
  if (level < 0) return 0;
  const StateSpace& space = chain.space();
  return level >= space.capacity() ? space.size() : space.level_offset(level + 1);
}

// Expected counts over a stretch from the measures of its integrated vector (linear in it).
struct Counts {
  double offered = 0, lost = 0, obsolete = 0, served = 0;
  double robot_time = 0, empty_time = 0, page_time = 0;
  void add(const Measures& m) {
    offered += m.lambda;
    if (m.lambda > 0) {
      lost += m.lambda * m.p_loss;
      obsolete += m.lambda * m.p_obsolete;
      served += m.lambda * m.p_served;
    }
    robot_time += m.mean_active_robots;
    empty_time += m.p_starvation;
    page_time += m.mean_in_system;
  }
};

TransientPoint point_at(double t, const Measures& now, const Counts& counts,
                        const model::Costs& costs) {
  TransientPoint point;
  point.t = t;
  point.level_probabilities = now.level_probabilities;
  point.mean_in_system = now.mean_in_system;
  point.mean_in_queue = now.mean_in_queue;
  point.mean_active_robots = now.mean_active_robots;
  point.p_empty = now.level_probabilities.front();
  point.offered_rate = now.lambda;
  if (now.lambda > 0) {
    point.loss_rate = now.lambda * now.p_loss;
    point.obsolescence_rate = now.lambda * now.p_obsolete;
    point.service_rate = now.lambda * now.p_served;
  }
  point.offered = counts.offered;
  point.lost = counts.lost;
  point.obsolete = counts.obsolete;
  point.served = counts.served;
  point.cost_accumulated = costs.loss * counts.lost + costs.obsolescence * counts.obsolete +
                           costs.robot * counts.robot_time + costs.starvation * counts.empty_time +
                           costs.holding * counts.page_time;
  return point;
}

}  // namespace

TransientResult transient_analysis(const model::Model& model, const model::ControlPolicy& policy,
                                   const Eigen::VectorXd& start, const TransientOptions& options) {
  const TransientChain serving(model, policy);
  std::optional<TransientChain> stopped;
  if (options.outage > 0) {
    model::Model paused = model;
    paused.service = model.service.paused();
    stopped.emplace(paused, policy);
  }
  if (start.size() != serving.size())
    throw std::invalid_argument("transient_analysis: the start is not over the chain's states");
  TransientResult result;
  result.states = serving.size();
  Stepper stepper(options, result, states_up_to(serving, options.absorbing_level));
  Eigen::VectorXd p = start;
  // The integrals of p during the outage and after it: their measures are under different chains.
  Eigen::VectorXd during = Eigen::VectorXd::Zero(p.size()), after = during;
  double now = 0;
  for (const double t : options.times) {
    while (now < t) {
      const bool out = now < options.outage;
      const double end = out ? std::min(t, options.outage) : t;
      stepper.advance(out ? *stopped : serving, p, out ? during : after, end - now);
      now = end;
    }
    Counts counts;
    if (stopped) counts.add(stopped->measures(during));
    counts.add(serving.measures(after));
    const Measures instant = t < options.outage ? stopped->measures(p) : serving.measures(p);
    result.points.push_back(point_at(t, instant, counts, model.costs));
  }
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
    model::Model paused = model;
    paused.service = model.service.paused();
    const TransientChain stopped(paused, policy);
    TransientResult unused;
    Stepper stepper(absorbing, unused, frozen);
    Eigen::VectorXd area = Eigen::VectorXd::Zero(p.size());
    stepper.advance(stopped, p, area, options.outage);
    before = area.tail(area.size() - frozen).sum();
    drain.truncation_error += unused.truncation_error;
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
