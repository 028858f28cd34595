#pragma once
// P(tau <= x, fate) for the tagged page by Krylov steps (krylov_propagation.hpp) on its chain with
// the two fates as absorbing states: where the fastest state leaves so often that uniformisation
// would need q x products (a phase at 10^7 beside a sojourn of seconds), a step spans many 1 / q
// once the fast part has settled. Each step keeps what its absorbed masses are made of, so the
// distribution function at any time already stepped over costs a small matrix exponential, not a
// product: a quantile's bisection steps over the horizon once.
#include <Eigen/Core>
#include <array>
#include <atomic>
#include <cstddef>
#include <vector>

#include "analytic/sojourn/tagged_page_chain.hpp"

namespace crawlq::analytic {

// The subspace's largest dimension, and the memory its basis may take: 2 GiB holds 30 vectors up
// to K = 21 of the paper's example, 12 at K = 23 (the solver's memory estimate counts it).
inline constexpr int kAbsorptionKrylovDimension = 30;
inline constexpr double kAbsorptionKrylovBytes = 2.0 * (1 << 30);

class KrylovAbsorption {
 public:
  // `start`: where the page starts (TaggedPageChain::arrival_distribution). `horizon`: about how
  // far the times asked for reach; the absolute error of every answer within it is at most
  // `tolerance` (beyond, it grows in proportion). `most_products` > 0 bounds the products over
  // every call: std::invalid_argument past it.
  // `stop`, set from another thread, ends the steps with analytic::Cancelled.
  KrylovAbsorption(const TaggedPageChain& chain, const Eigen::RowVectorXd& start, double horizon,
                   double tolerance, std::size_t most_products = 0,
                   const std::atomic<bool>* stop = nullptr);

  // {P(tau <= x, served), P(tau <= x, obsolete)}; steps further in time as needed.
  std::array<double, 2> absorbed(double x);
  std::size_t products() const { return products_; }
  int steps() const { return static_cast<int>(steps_.size()); }
  // The subspace's dimension, at most: fewer where its basis would not fit in memory (0: none).
  int dimension() const { return dimension_; }
  static int dimension_for(const TaggedPageChain& chain);
  // Below this dimension a step spans too little: uniformisation, whatever it costs, is kept.
  static constexpr int kLeastDimension = 8;

 private:
  // Over [start, end): the absorbed masses are beta (served|obsolete) exp((x - start) H) e1;
  // without H they stay at `settled` (the chain had reached its fixed point).
  struct Step {
    double start, end, beta;
    Eigen::MatrixXd hessenberg;
    Eigen::VectorXd served, obsolete;  // the basis vectors' absorbing entries
    std::array<double, 2> settled;
  };
  // Steps from reached_ to `until`, for the time `asked` (which a refusal names).
  void step_to(double until, double asked);

  const TaggedPageChain& chain_;
  Eigen::VectorXd state_;  // at reached_: the transient states, then served, then obsolete
  double reached_ = 0, horizon_, tolerance_rate_;
  std::size_t most_products_, products_ = 0;
  const std::atomic<bool>* stop_;
  int dimension_;
  std::vector<Step> steps_;
};

}  // namespace crawlq::analytic
