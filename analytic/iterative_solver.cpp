#include "analytic/iterative_solver.hpp"

#include "analytic/pinned_system.hpp"

#include <fmt/format.h>

#include <Eigen/IterativeLinearSolvers>
#include <vector>

namespace crawlq::analytic {

namespace {

using ColumnSparse = Eigen::SparseMatrix<double>;

}  // namespace

StationaryResult IterativeSolver::solve(const GeneratorBlocks& blocks) const {
  SparseMatrix q = blocks.assemble();
  const Eigen::Index n = q.rows();
  StationaryResult result;
  // The pinned state should carry visible mass: the warm start's largest, else the empty system.
  Eigen::Index pinned = 0;
  if (options_.initial_guess && options_.initial_guess->size() == n) options_.initial_guess->maxCoeff(&pinned);

  const PinnedSystem system = pin_state(q, pinned);
  q = SparseMatrix();  // the pinned copy is all the solve needs
  Eigen::BiCGSTAB<ColumnSparse, Eigen::DiagonalPreconditioner<double>> bicgstab;
  bicgstab.setTolerance(options_.tolerance);
  bicgstab.setMaxIterations(options_.max_iterations);
  bicgstab.compute(system.matrix);
  if (bicgstab.info() != Eigen::Success) {
    result.summary.message = "the incomplete LU factorisation failed";
    return result;
  }
  Eigen::VectorXd x;
  if (options_.initial_guess && options_.initial_guess->size() == n) {
    const Eigen::VectorXd& g = *options_.initial_guess;
    Eigen::VectorXd guess(n - 1);
    for (Eigen::Index i = 0; i < n; ++i)
      if (i != pinned) guess(i < pinned ? i : i - 1) = g(i) / g(pinned);
    x = bicgstab.solveWithGuess(system.rhs, guess);
  } else {
    x = bicgstab.solve(system.rhs);
  }
  result.summary.iterations = static_cast<int>(bicgstab.iterations());
  if (bicgstab.info() != Eigen::Success) {
    result.summary.message = fmt::format("BiCGSTAB stopped after {} iterations at relative residual {:.3g}",
                                         bicgstab.iterations(), bicgstab.error());
    return result;
  }
  result.probabilities = unpin(x, pinned);
  result.summary.status = SolverStatus::kConverged;
  result.summary.message = fmt::format("BiCGSTAB: {} iterations, relative residual {:.3g}",
                                       bicgstab.iterations(), bicgstab.error());
  return result;
}

}  // namespace crawlq::analytic
