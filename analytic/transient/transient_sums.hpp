#pragma once
// The sums a transient reports of each term p P^n (TransientSums), as
// compute_measures gives them but on threads: the vector is cut into blocks of one level, arrival
// phase and service phase (and at most kBlockEntries entries), each block's sums land in its own
// slot, and the slots are added in block order, so the bits do not depend on the thread count. The
// clocks' expiry rates of each level are computed once, not once a term.
#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "analytic/stationary/controlled_arrivals.hpp"
#include "analytic/stationary/state_space.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

// What a transient reports of a vector, as sums linear in it (no ratios): the level distribution,
// the pages, the robots, and the rates of offered, lost, obsolete and served pages. Of p(t) they
// are the values at t; of the integral of p over [0, t], the expected counts.
struct TransientSums {
  std::vector<double> levels;
  double in_system = 0, in_queue = 0, robots = 0;
  double offered = 0, lost = 0, obsolete = 0, served = 0;

  explicit TransientSums(std::size_t level_count = 0) : levels(level_count, 0.0) {}
  void add(double a, const TransientSums& x);  // this += a x
};

class TransientSumsKernel {
 public:
  // `arrivals` and `space` must outlive the kernel.
  TransientSumsKernel(const model::Model& model, const ControlledArrivals& arrivals,
                      const StateSpace& space);
  TransientSums sums(const Eigen::VectorXd& p, int threads) const;

 private:
  struct Block {
    Eigen::Index begin = 0, length = 0;
    int level = 0, arrival = 0, service = -1;  // service -1: level 0
    Eigen::Index clock_begin = 0;              // the block's first clock combination
  };
  struct Level {
    Eigen::VectorXd offered, lost;  // per arrival phase: pages offered and lost per unit time
    Eigen::VectorXd expiry;         // per clock combination: the waiting pages' expiry rate
  };
  const ControlledArrivals& arrivals_;
  const StateSpace& space_;
  int capacity_ = 0;
  Eigen::VectorXd completion_;  // per service phase: S_0
  std::vector<Level> levels_;
  std::vector<Block> blocks_;
};

}  // namespace crawlq::analytic
