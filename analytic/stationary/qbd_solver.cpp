#include "analytic/stationary/qbd_solver.hpp"

#include <Eigen/Dense>
#include <vector>

#include "model/linear_algebra.hpp"

namespace crawlq::analytic {

std::string QbdSolver::refusal(const model::Model& model) {
  if (batches_are_single(model.arrivals)) return {};
  return "needs single arrivals (every D_k with k >= 2 zero); this model has batches: use "
         "block-recursion or sparse-lu";
}

std::string QbdSolver::refusal(const GeneratorBlocks& blocks) const {
  return refusal(blocks.model());
}

StationaryResult QbdSolver::solve(const GeneratorBlocks& blocks) const {
  using Dense = Eigen::MatrixXd;
  const int k = blocks.capacity();
  const StateSpace& space = blocks.space();

  // Step 1: U_i = Q_{i,i} + Q_{i,i+1} G_i (U_K = Q_{K,K}), G_{i-1} = (-U_i)^{-1} Q_{i,i-1}.
  std::vector<Eigen::PartialPivLU<Dense>> minus_u(k + 1);
  std::vector<Dense> g(k);
  for (int i = k; i >= 1; --i) {
    Dense u = Dense(blocks.block(i, i));
    if (i < k) u += blocks.block(i, i + 1) * g[i];
    minus_u[i].compute(-u);
    g[i - 1] = minus_u[i].solve(Dense(blocks.block(i, i - 1)));
  }
  Dense u0 = Dense(blocks.block(0, 0));
  if (k >= 1) u0 += blocks.block(0, 1) * g[0];

  // Steps 2-4 on the vector directly: p_i = p_{i-1} Q_{i-1,i} (-U_i)^{-1}, with p_0 U_0 = 0.
  // U_0 generates the chain censored on level 0; the whole p is rescaled below.
  Eigen::RowVectorXd level = model::stationary_distribution(u0);

  StationaryResult result;
  result.probabilities.resize(space.size());
  result.probabilities.segment(0, space.level_size(0)) = level.transpose();
  for (int i = 1; i <= k; ++i) {
    const Eigen::RowVectorXd flow = level * blocks.block(i - 1, i);
    const Eigen::VectorXd solved = minus_u[i].transpose().solve(Eigen::VectorXd(flow.transpose()));
    level = solved.transpose();
    result.probabilities.segment(space.level_offset(i), space.level_size(i)) = level.transpose();
  }
  result.probabilities /= result.probabilities.sum();
  result.summary.status = SolverStatus::kConverged;
  result.summary.iterations = k + 1;
  return result;
}

}  // namespace crawlq::analytic
