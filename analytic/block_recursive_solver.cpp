#include "analytic/block_recursive_solver.hpp"

#include <Eigen/Dense>
#include <vector>

namespace crawlq::analytic {

namespace {
using Dense = Eigen::MatrixXd;

// Solves p_0 M = 0 with the normalisation p_0 weights = 1 (one balance equation replaced).
Eigen::RowVectorXd null_row_vector(const Dense& m, const Eigen::VectorXd& weights) {
  Dense system = m.transpose();
  system.row(system.rows() - 1) = weights.transpose();
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(system.rows());
  rhs(rhs.size() - 1) = 1.0;
  return system.fullPivLu().solve(rhs).transpose();
}
}  // namespace

StationaryResult BlockRecursiveSolver::solve(const GeneratorBlocks& blocks) const {
  const int k = blocks.capacity();
  const StateSpace& space = blocks.space();

  // Step 2's Q-bar_{i,l} for i <= l, built from the top level down; Q-bar_{l,l} is factorised once
  // and serves both step 1 (G_{l-1}) and step 3 (F_l).
  std::vector<std::vector<Dense>> bar(k + 1, std::vector<Dense>(k + 1));
  std::vector<Eigen::PartialPivLU<Dense>> minus_bar_diag(k + 1);
  std::vector<Dense> g(k);  // G_l: d_{l+1} x d_l
  for (int l = k; l >= 0; --l) {
    for (int i = 0; i <= l; ++i) {
      bar[i][l] = Dense(blocks.block(i, l));
      if (l < k) bar[i][l] += bar[i][l + 1] * g[l];
    }
    // Q-bar_{i,l+1} is needed by step 3 only for i < l+1, which is kept; the rest is done.
    minus_bar_diag[l].compute(-bar[l][l]);
    if (l >= 1) g[l - 1] = minus_bar_diag[l].solve(Dense(blocks.block(l, l - 1)));  // step 1
  }

  // Step 3: F_l = sum_{i<l} F_i Q-bar_{i,l} (-Q-bar_{l,l})^{-1}, each F_l of d_0 rows only.
  std::vector<Dense> f(k + 1);
  f[0] = Dense::Identity(space.level_size(0), space.level_size(0));
  Eigen::VectorXd total = Eigen::VectorXd::Ones(space.level_size(0));
  for (int l = 1; l <= k; ++l) {
    Dense sum = Dense::Zero(space.level_size(0), space.level_size(l));
    for (int i = 0; i < l; ++i) sum += f[i] * bar[i][l];
    const Dense solved = minus_bar_diag[l].transpose().solve(Dense(sum.transpose()));
    f[l] = solved.transpose();
    total += f[l] * Eigen::VectorXd::Ones(space.level_size(l));
  }

  // Steps 4 and 5.
  const Eigen::RowVectorXd p0 = null_row_vector(bar[0][0], total);
  StationaryResult result;
  result.probabilities.resize(space.size());
  for (int l = 0; l <= k; ++l)
    result.probabilities.segment(space.level_offset(l), space.level_size(l)) =
        (p0 * f[l]).transpose();
  result.summary.status = SolverStatus::kConverged;
  result.summary.iterations = k + 1;
  return result;
}

}  // namespace crawlq::analytic
