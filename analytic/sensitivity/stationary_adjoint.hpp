#pragma once
// The adjoint of the stationary equations p Q = 0, p e = 1: for a gradient g (of a measure with
// respect to p), x with Q x = g - (p . g) e. Then for any change dQ of the generator (whose rows
// still sum to zero), the measure moves through p by -p dQ x: one solve per measure serves every
// parameter (sensitivity/rate_sensitivities.hpp).
#include <Eigen/Core>
#include <Eigen/LU>

#include "analytic/stationary/generator_blocks.hpp"

namespace crawlq::analytic {

class StationaryAdjoint {
 public:
  // Up to this many states the pinned Q is factorised whole (32 MB, a blink), which no stiff law
  // can defeat.
  static constexpr Eigen::Index kDenseStates = 2000;

  // `q` the generator (assembled), `p` its stationary vector.
  StationaryAdjoint(SparseMatrix q, const Eigen::VectorXd& p);

  // x, up to a multiple of e (which no change of a generator sees), from Q with the likeliest
  // state's equation replaced by x there = 0: factorised densely up to kDenseStates, else by
  // BiCGSTAB preconditioned by a backward Gauss-Seidel sweep. Throws std::runtime_error when
  // BiCGSTAB stops unconverged.
  Eigen::VectorXd solve(const Eigen::VectorXd& gradient) const;

 private:
  SparseMatrix q_;
  Eigen::VectorXd p_;
  Eigen::Index pinned_ = 0;
  double pinned_scale_ = 1;
  Eigen::PartialPivLU<Eigen::MatrixXd> dense_;  // small chains only
};

}  // namespace crawlq::analytic
