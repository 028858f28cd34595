#pragma once
// The distribution of the chain at given times from a given start, p(t) = p(0) exp(Q t), with the
// expected counts over [0, t] (offered, lost, obsolete, served pages) and the cost accumulated, by
// uniformisation on the matrix-free generator. An outage of the indexer during [0, D) runs the
// chain with the service clock stopped (model::PhaseType::paused) and then the chain itself.
#include <Eigen/Core>
#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "model/control_policy.hpp"
#include "model/model.hpp"
#include "model/name_table.hpp"

namespace crawlq::analytic {

// Where a transient starts: no pages, K pages, or the policy's own long run (the stationary
// vector).
enum class TransientStart { kEmpty, kFull, kStationary };
inline constexpr model::NameTable<TransientStart, 3> kTransientStartNames{
    "start",
    {{{TransientStart::kEmpty, "empty"},
      {TransientStart::kFull, "full"},
      {TransientStart::kStationary, "stationary"}}}};

// How p(t) is computed: uniformisation (q t products of x Q, q the fastest state's outflow: a
// bound on the error), Krylov projections (analytic/transient/krylov_propagation.hpp: steps of
// many 1 / q where the chain is stiff or the horizon long; each step's residual bounds its error),
// or the second where the first would take more than kKrylovAbove products and the basis fits
// in kKrylovBytes.
enum class TransientMethod { kAuto, kUniformisation, kKrylov };
inline constexpr model::NameTable<TransientMethod, 3> kTransientMethodNames{
    "transient method",
    {{{TransientMethod::kAuto, "auto"},
      {TransientMethod::kUniformisation, "uniformisation"},
      {TransientMethod::kKrylov, "krylov"}}}};
inline constexpr double kKrylovAbove = 1000;
inline constexpr double kKrylovBytes = 1 << 30;
inline constexpr int kKrylovDimension = 30;

struct TransientOptions {
  std::vector<double> times;  // nondecreasing, >= 0, counted from the start (of the outage)
  double outage = 0;          // D: the indexer serves nothing during [0, D)
  int threads = 1;
  // Of the Poisson sums, per stretch between two times (and the steady-state shortcut).
  double tolerance = 1e-12;
  const std::atomic<bool>* stop = nullptr;  // set from another thread: analytic::Cancelled
  // >= 0: the levels 0..absorbing_level hold what reaches them (their states make no move), so
  // that their probability at t is that of having reached them by t.
  int absorbing_level = -1;
  // > 0: the most products x Q the whole transient may take; a stretch that would take more is
  // refused before it starts (TooMuchTransientWork).
  double most_products = 0;
  TransientMethod method = TransientMethod::kAuto;
};

// Thrown before a stretch whose products would pass TransientOptions::most_products.
struct TooMuchTransientWork : std::length_error {
  TooMuchTransientWork(double needed, double allowed)
      : std::length_error("the transient needs more products than allowed"),
        needed(needed),
        allowed(allowed) {}
  double needed, allowed;  // products x Q
};

// The state at one time: instantaneous values (rates in pages per unit time) and the expected
// counts over [0, t].
struct TransientPoint {
  double t = 0;
  std::vector<double> level_probabilities;
  double mean_in_system = 0, mean_in_queue = 0, mean_active_robots = 0, p_empty = 0;
  double offered_rate = 0, loss_rate = 0, obsolescence_rate = 0, service_rate = 0;
  double offered = 0, lost = 0, obsolete = 0, served = 0;
  // The integral over [0, t] of the cost (2)'s rate terms: loss and obsolescence weights times
  // their rates, robots, starvation and holding (the sojourn term is a ratio, not a rate).
  double cost_accumulated = 0;
};

struct TransientResult {
  std::vector<TransientPoint> points;  // one per time, in order
  // A bound on the l1 distance between each computed p(t) and the exact one (the weight the Poisson
  // sums and the steady-state shortcut left out, summed over the stretches).
  double truncation_error = 0;
  Eigen::Index states = 0;
  std::size_t products = 0;  // products x Q, over every stretch
  // The method of the stretches (kKrylov if any took it); with it truncation_error is the sum of
  // the steps' bounds.
  TransientMethod method = TransientMethod::kUniformisation;
};

// The time until the level first drops to `level` or below, from a start (with the outage of
// `options`): its mean and its distribution function at options.times.
struct DrainResult {
  int level = 0;
  double mean = 0;
  std::vector<double> cdf;  // P(drained by t), one per time
  int iterations = 0;       // of the linear solve for the mean
  double residual = 0;      // its relative residual
  double truncation_error = 0;
};
DrainResult drain_analysis(const model::Model& model, const model::ControlPolicy& policy,
                           const Eigen::VectorXd& start, int level,
                           const TransientOptions& options);

// `start`: a distribution over the states of the chain of (`model`, `policy`) (analytic::
// chain_space's order), such as TransientChain::empty_start() or a stationary vector.
TransientResult transient_analysis(const model::Model& model, const model::ControlPolicy& policy,
                                   const Eigen::VectorXd& start, const TransientOptions& options);

}  // namespace crawlq::analytic
