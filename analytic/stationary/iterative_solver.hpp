#pragma once
// A Krylov solver for chains too large for the block recursion's dense blocks. Q is never stored:
// BiCGSTAB (parallel_bicgstab.hpp: its vector work shared by threads too) multiplies by Q^T applied
// from the model's small matrices (generator_operator.hpp), one state's equation replaced by
// p_pin = 1, preconditioned by a symmetric Gauss-Seidel sweep (GeneratorOperator::symmetric_sweep:
// up the levels and back down, the moves between levels and between a level's phase blocks solved
// in the chain's order, the clocks' moves inside a level left to Q's diagonal): the paper's chains
// converge in 15-22 iterations from K = 12 to K = 20, against 27-36 with the forward sweep by level
// alone (kLevelSweep) and 37-60 with the diagonal alone. (An incomplete LU preconditioner needs Q
// stored, and its factorisation took 230 s at K = 14.) A warm start (a neighbouring policy's
// solution) is taken.
#include <Eigen/Core>
#include <atomic>
#include <optional>

#include "analytic/stationary/stationary_solver.hpp"

namespace crawlq::analytic {

struct IterativeOptions {
  // Relative residual of the pinned system. 1e-13 gives ||p Q||_1 near 1e-15 on the paper's chains
  // and measures to about 1e-12; the summary reports what was reached.
  double tolerance = 1e-13;
  int max_iterations = 5000;
  std::optional<Eigen::VectorXd> initial_guess;  // a stationary vector of the same state space
  int threads =
      1;  // inside the operator; rows are split, never sums, so the result does not change
  Preconditioner preconditioner = Preconditioner::kSymmetricSweep;
  // Set from another thread to stop at the next product: the solve comes back failed, "cancelled".
  const std::atomic<bool>* stop = nullptr;
};

class IterativeSolver final : public StationarySolver {
 public:
  explicit IterativeSolver(IterativeOptions options = {}) : options_(std::move(options)) {}
  Method method() const override { return Method::kIterative; }
  StationaryResult solve(const GeneratorBlocks& blocks) const override;

 private:
  IterativeOptions options_;
};

}  // namespace crawlq::analytic
