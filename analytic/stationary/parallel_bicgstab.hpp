#pragma once
// BiCGSTAB for a matrix-free operator with a diagonal (Jacobi) preconditioner, whose vector work
// is shared by threads as well as its products. Eigen's BiCGSTAB runs its ten vector updates and
// dot products a sweep each on one core: at K = 20 that was a third of a solve. Here the updates
// are fused into four sweeps, and every dot product is summed over fixed chunks in a fixed order,
// so the iterates are the same bits for any thread count.
#include <Eigen/Core>
#include <atomic>
#include <functional>

namespace crawlq::analytic {

struct KrylovSummary {
  bool converged = false;
  bool cancelled = false;
  int iterations = 0;
  double relative_residual = 0;  // ||b - A x|| / ||b|| as the recursion tracks it
};

struct KrylovOptions {
  double tolerance = 1e-13;  // on the relative residual
  int max_iterations = 5000;
  int threads = 1;
  const std::atomic<bool>* stop = nullptr;  // checked once an iteration
};

// y = A x for vectors of the system's size, on `threads` threads; x and y never alias. The solver
// picks the threads each iteration (AdaptiveThreads: fewer while other programs hold cores), up to
// KrylovOptions::threads.
using LinearOperator = std::function<void(const double* x, double* y, int threads)>;

// Solves A x = b from the guess in x (zero for a cold start), preconditioned on the right by
// diag(inverse_diagonal).
KrylovSummary parallel_bicgstab(const LinearOperator& a, const Eigen::VectorXd& inverse_diagonal,
                                const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                const KrylovOptions& options);
// A vector of n zeros whose pages the threads touch first, chunk by chunk side by side: on a VM a
// new page's first touch costs the host's fault too, a sixth of a large solve when one thread took
// them all.
Eigen::VectorXd parallel_zeros(Eigen::Index n, int threads);

// The same with any right preconditioner: out = M^{-1} in.
KrylovSummary parallel_bicgstab(const LinearOperator& a, const LinearOperator& preconditioner,
                                const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                const KrylovOptions& options);

// A right-hand side of `size` entries, all 0 but one: a stationary solve's pinned equation. No
// vector of the chain's size is made for it (at K = 24, 537 MB of fresh memory, which a VM's first
// touch makes slow); the iterates are the same bits as with the vector.
struct UnitRightHandSide {
  Eigen::Index index;
  double value;
  Eigen::Index size;
};
KrylovSummary parallel_bicgstab(const LinearOperator& a, const LinearOperator& preconditioner,
                                const UnitRightHandSide& b, Eigen::VectorXd& x,
                                const KrylovOptions& options);

}  // namespace crawlq::analytic
