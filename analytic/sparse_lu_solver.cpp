#include "analytic/sparse_lu_solver.hpp"

#include <Eigen/SparseLU>
#include <vector>

namespace crawlq::analytic {

StationaryResult SparseLuSolver::solve(const GeneratorBlocks& blocks) const {
  const SparseMatrix q = blocks.assemble();
  const Eigen::Index n = q.rows();
  // Q^T p = 0 with the last balance equation replaced by p e = 1.
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(q.nonZeros() + n);
  for (Eigen::Index r = 0; r < q.outerSize(); ++r)
    for (SparseMatrix::InnerIterator it(q, r); it; ++it)
      if (it.col() != n - 1) entries.emplace_back(it.col(), it.row(), it.value());
  for (Eigen::Index c = 0; c < n; ++c) entries.emplace_back(n - 1, c, 1.0);
  Eigen::SparseMatrix<double> system(n, n);
  system.setFromTriplets(entries.begin(), entries.end());

  StationaryResult result;
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.compute(system);
  if (lu.info() != Eigen::Success) {
    result.summary.status = SolverStatus::kFailed;
    result.summary.message = "SparseLU factorisation failed: " + lu.lastErrorMessage();
    return result;
  }
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n);
  rhs(n - 1) = 1.0;
  result.probabilities = lu.solve(rhs);
  result.summary.status = SolverStatus::kConverged;
  result.summary.iterations = 1;
  return result;
}

}  // namespace crawlq::analytic
