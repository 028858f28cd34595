#include "analytic/control/markov_control.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace crawlq::analytic {

namespace {

// The empty system in arrival phase 0: its bias is 0, and the unknown there is the gain instead.
constexpr Eigen::Index kPinned = 0;

}  // namespace

PolicyValue evaluate_markov(const FullStateChain& chain, const std::vector<int>& robots,
                            double extra_holding, const Eigen::VectorXd* warm,
                            const std::atomic<bool>* stop, int threads) {
  const SparseMatrix q = chain.generator(robots);
  const Eigen::Index n = q.rows();
  // Q h - g e = -c, with the pinned column of Q (whose h is 0) holding -1 for g.
  SparseMatrix a(n, n);
  a.reserve(q.nonZeros() + n);
  for (Eigen::Index x = 0; x < n; ++x) {
    a.startVec(x);
    bool placed = false;
    for (SparseMatrix::InnerIterator it(q, x); it; ++it) {
      if (!placed && it.col() >= kPinned) {
        a.insertBack(x, kPinned) = -1.0;
        placed = true;
      }
      if (it.col() != kPinned) a.insertBack(x, it.col()) = it.value();
    }
    if (!placed) a.insertBack(x, kPinned) = -1.0;
  }
  a.finalize();
  Eigen::VectorXd rhs = -chain.cost_rate(robots);
  if (extra_holding != 0) rhs -= chain.per_page(extra_holding);
  Eigen::VectorXd guess;
  if (warm && warm->size() == n) guess = *warm;
  SparseSolution s = solve_sparse(
      a, rhs, {.guess = guess.size() ? &guess : nullptr, .stop = stop, .threads = threads});
  PolicyValue v;
  v.message = s.message;
  if (!s.solved) return v;
  v.gain = s.x(kPinned);
  v.bias = std::move(s.x);
  v.bias(kPinned) = 0;
  v.solved = true;
  return v;
}

std::vector<Eigen::VectorXd> bellman_values(const FullStateChain& chain,
                                            const Eigen::VectorXd& bias, double extra_holding) {
  std::vector<Eigen::VectorXd> values;
  const Eigen::VectorXd holding =
      extra_holding != 0 ? chain.per_page(extra_holding) : Eigen::VectorXd();
  for (int r = 1; r <= chain.modes(); ++r) {
    Eigen::VectorXd v = chain.cost_rate(r) + chain.constant_generator(r) * bias;
    if (extra_holding != 0) v += holding;
    values.push_back(std::move(v));
  }
  return values;
}

MarkovOptimum optimize_markov(const FullStateChain& chain, std::vector<int> start,
                              const MarkovControlOptions& options) {
  MarkovOptimum best;
  best.robots = std::move(start);
  Eigen::VectorXd warm;
  for (int step = 1; step <= options.max_steps; ++step) {
    if (options.stop && *options.stop) {
      best.message = "cancelled";
      return best;
    }
    PolicyValue value =
        evaluate_markov(chain, best.robots, options.extra_holding, warm.size() ? &warm : nullptr,
                        options.stop, options.threads);
    if (!value.solved) {
      best.message = fmt::format("the evaluation of policy {} failed: {}", step, value.message);
      return best;
    }
    best.steps = step;
    best.gain = value.gain;
    best.gains.push_back(value.gain);
    if (options.progress) options.progress(step, value.gain);
    const std::vector<Eigen::VectorXd> values =
        bellman_values(chain, value.bias, options.extra_holding);
    // A change must beat the current robots by more than the evaluation's round-off, or the
    // iteration could cycle between policies of equal gain.
    double scale = std::abs(value.gain);
    for (const auto& v : values) scale = std::max(scale, v.cwiseAbs().maxCoeff());
    const double tie = 1e-11 * std::max(scale, 1.0);
    bool changed = false;
    double lowest = std::numeric_limits<double>::infinity();
    for (Eigen::Index x = 0; x < chain.size(); ++x) {
      int& robots = best.robots[static_cast<std::size_t>(x)];
      double least = values[static_cast<std::size_t>(robots - 1)](x);
      int choice = robots;
      for (int r = 1; r <= chain.modes(); ++r) {
        const double candidate = values[static_cast<std::size_t>(r - 1)](x);
        lowest = std::min(lowest, candidate);
        if (candidate < least - tie) {
          least = candidate;
          choice = r;
        }
      }
      changed = changed || choice != robots;
      robots = choice;
    }
    best.lower_bound = lowest;
    if (!changed) {
      best.converged = true;
      return best;
    }
    warm = std::move(value.bias);
    warm(kPinned) = value.gain;
  }
  best.message = fmt::format("no fixed point after {} policy improvements", options.max_steps);
  return best;
}

}  // namespace crawlq::analytic
