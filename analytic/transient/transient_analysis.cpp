#include "analytic/transient/transient_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/stationary/parallel_bicgstab.hpp"
#include "analytic/transient/stretch_runner.hpp"
#include "analytic/transient/transient_chain.hpp"

namespace crawlq::analytic {

namespace {

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
  const LinearOperator minus_q_tt = [&](const double* x, double* y, int threads) {
    scratch = Eigen::Map<const Eigen::VectorXd>(x, p.size());
    scratch.head(frozen).setZero();
    Eigen::VectorXd product(p.size());
    serving.apply(scratch, product, threads);
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
