#include "analytic/sensitivity/stationary_adjoint.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "analytic/stationary/parallel_bicgstab.hpp"

namespace crawlq::analytic {

StationaryAdjoint::StationaryAdjoint(SparseMatrix q, const Eigen::VectorXd& p)
    : q_(std::move(q)), p_(p) {
  q_.makeCompressed();
  p_.maxCoeff(&pinned_);
  // The pinned equation on the scale of its own row, so that it weighs like the others.
  pinned_scale_ = std::abs(q_.coeff(pinned_, pinned_));
  if (pinned_scale_ == 0) pinned_scale_ = 1;
  if (q_.rows() > kDenseStates) return;
  Eigen::MatrixXd pinned_q = Eigen::MatrixXd(q_);
  pinned_q.row(pinned_).setZero();
  pinned_q(pinned_, pinned_) = pinned_scale_;
  dense_.compute(pinned_q);
}

Eigen::VectorXd StationaryAdjoint::solve(const Eigen::VectorXd& gradient) const {
  const Eigen::Index n = q_.rows();
  Eigen::VectorXd rhs = gradient.array() - p_.dot(gradient);
  rhs(pinned_) = 0;
  // A measure that p does not move (a constant gradient): BiCGSTAB has nothing to start from.
  if (rhs.isZero(0)) return Eigen::VectorXd::Zero(n);
  if (n <= kDenseStates) return dense_.solve(rhs);
  // Q x with the pinned row replaced: the rows the pinned one depends on (p Q = 0) fix x but for
  // a multiple of e, which x there = 0 removes.
  const LinearOperator pinned_q = [&](const double* x, double* y, int) {
    const Eigen::Map<const Eigen::VectorXd> in(x, n);
    Eigen::Map<Eigen::VectorXd> out(y, n);
    out.noalias() = q_ * in;
    out(pinned_) = pinned_scale_ * in(pinned_);
  };
  // z with (diagonal + strict upper triangle) z = r, from the last state up: the batches that
  // raise the level and the phase moves to later states, the parts a page's arrival sets off.
  const LinearOperator backward_sweep = [&](const double* r, double* z, int) {
    for (Eigen::Index i = n - 1; i >= 0; --i) {
      if (i == pinned_) {
        z[i] = r[i] / pinned_scale_;
        continue;
      }
      double sum = r[i], diagonal = 0;
      for (SparseMatrix::InnerIterator it(q_, i); it; ++it) {
        if (it.col() > i)
          sum -= it.value() * z[it.col()];
        else if (it.col() == i)
          diagonal = it.value();
      }
      z[i] = sum / diagonal;
    }
  };
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
  const KrylovSummary summary = parallel_bicgstab(pinned_q, backward_sweep, rhs, x,
                                                  {.tolerance = 1e-12, .max_iterations = 5000});
  if (!summary.converged)
    throw std::runtime_error(
        fmt::format("the adjoint solve stopped after {} iterations at relative residual {:.3g}",
                    summary.iterations, summary.relative_residual));
  return x;
}

}  // namespace crawlq::analytic
