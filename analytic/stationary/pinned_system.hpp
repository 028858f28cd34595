#pragma once
// p Q = 0 with one state's probability pinned to 1: Q^T without that state's row and column, and
// minus its column as the right-hand side. For an irreducible chain the system is nonsingular, and
// unlike a row of ones for p e = 1 it keeps Q's sparsity (a dense row ruins sparse factorisations).
#include <Eigen/SparseCore>

#include "analytic/stationary/generator_blocks.hpp"

namespace crawlq::analytic {

struct PinnedSystem {
  Eigen::SparseMatrix<double> matrix;  // column-major: Q's rows are its columns
  Eigen::VectorXd rhs;
  Eigen::Index pinned = 0;
};

PinnedSystem pin_state(const SparseMatrix& q, Eigen::Index pinned);

// p from the pinned system's solution x: x with 1 put back at `pinned`, normalised to sum 1.
Eigen::VectorXd unpin(const Eigen::VectorXd& x, Eigen::Index pinned);

}  // namespace crawlq::analytic
