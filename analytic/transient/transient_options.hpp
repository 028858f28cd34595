#pragma once
// What a transient is asked and what it gives: the named starts, the methods, the options and the
// points of p(t), shared by transient analysis, its stretches and the periodic regime.
#include <Eigen/Core>
#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <vector>

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

}  // namespace crawlq::analytic
