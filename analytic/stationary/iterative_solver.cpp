#include "analytic/stationary/iterative_solver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "analytic/adaptive_threads.hpp"
#include "analytic/stationary/generator_operator.hpp"
#include "analytic/stationary/parallel_bicgstab.hpp"

namespace crawlq::analytic {

StationaryResult IterativeSolver::solve(const GeneratorBlocks& blocks) const {
  const GeneratorOperator q(blocks.model(), blocks.arrivals());
  const Eigen::Index n = q.space().size();
  const bool warm = options_.initial_guess && options_.initial_guess->size() == n;
  StationaryResult result;
  // The pinned state should carry visible mass: the warm start's largest, else the empty system.
  Eigen::Index pinned = blocks.arrivals().recurrent_empty_phase();
  if (warm) options_.initial_guess->maxCoeff(&pinned);

  // Q^T with the pinned state's equation replaced by s p_pin = s: nonsingular for an irreducible
  // chain, and applied without copying a vector (the pinned entry is just overwritten). The
  // tolerance is relative to the right-hand side s: with s the slowest state's rate when it is
  // below 1 (a crawler measured in seconds: rates of 1e-3), it asks as much of a slow chain as of a
  // fast one.
  const double scale = std::min(1.0, q.slowest_outflow());
  const int threads = std::max(1, options_.threads);
  const LinearOperator pinned_transpose = [&](const double* x, double* y, int threads_now) {
    q.apply(x, y, threads_now);
    y[pinned] = scale * x[pinned];
  };
  const UnitRightHandSide rhs{.index = pinned, .value = scale, .size = n};
  Eigen::VectorXd x =
      warm ? Eigen::VectorXd(*options_.initial_guess / (*options_.initial_guess)(pinned))
           : parallel_zeros(n, threads_for_region(threads));
  const KrylovOptions krylov_options{.tolerance = options_.tolerance,
                                     .max_iterations = options_.max_iterations,
                                     .threads = threads,
                                     .stop = options_.stop};
  const LinearOperator sweep = [&](const double* in, double* out, int threads_now) {
    if (options_.preconditioner == Preconditioner::kLevelSweep)
      q.forward_sweep(in, out, pinned, scale, threads_now);
    else
      q.symmetric_sweep(in, out, pinned, scale, threads_now);
  };
  const auto jacobi = [&] {
    // The diagonal of Q, which the operator knows without a matrix.
    Eigen::VectorXd inverse_diagonal = q.diagonal().cwiseInverse();
    inverse_diagonal(pinned) = 1.0 / scale;
    Eigen::VectorXd dense_rhs = parallel_zeros(n, threads);
    dense_rhs(pinned) = scale;
    return parallel_bicgstab(pinned_transpose, inverse_diagonal, dense_rhs, x, krylov_options);
  };
  const KrylovSummary krylov =
      options_.preconditioner == Preconditioner::kJacobi
          ? jacobi()
          : parallel_bicgstab(pinned_transpose, sweep, rhs, x, krylov_options);
  result.summary.iterations = krylov.iterations;
  if (krylov.cancelled) {
    result.summary.message = "cancelled";
    return result;
  }
  if (!krylov.converged) {
    result.summary.message =
        fmt::format("BiCGSTAB stopped after {} iterations at relative residual {:.3g}",
                    krylov.iterations, krylov.relative_residual);
    return result;
  }
  // In place: a new vector would be one more of the solve's size for the pages' first touch.
  x /= x.sum();
  result.probabilities = std::move(x);
  result.summary.status = SolverStatus::kConverged;
  result.summary.message = fmt::format("BiCGSTAB: {} iterations, relative residual {:.3g}",
                                       krylov.iterations, krylov.relative_residual);
  return result;
}

}  // namespace crawlq::analytic
