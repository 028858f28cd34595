#include "analytic/iterative_solver.hpp"

#include <fmt/format.h>

#include <Eigen/IterativeLinearSolvers>
#include <type_traits>

#include "analytic/generator_operator.hpp"

namespace crawlq::analytic {
namespace {
struct Cancelled {};

class PinnedTranspose;
}  // namespace
}  // namespace crawlq::analytic

namespace Eigen::internal {
// Eigen's matrix-free solver protocol: the operator looks like a sparse matrix to BiCGSTAB.
template <>
struct traits<crawlq::analytic::PinnedTranspose> : traits<SparseMatrix<double>> {};
}  // namespace Eigen::internal

namespace crawlq::analytic {
namespace {

// Q^T with the pinned state's equation replaced by p_pin = 1: nonsingular for an irreducible chain,
// and applied without copying a vector (the pinned entry is just overwritten).
class PinnedTranspose : public Eigen::EigenBase<PinnedTranspose> {
 public:
  using Scalar = double;
  using RealScalar = double;
  using StorageIndex = int;
  enum { ColsAtCompileTime = Eigen::Dynamic, MaxColsAtCompileTime = Eigen::Dynamic, IsRowMajor = false };

  PinnedTranspose(const GeneratorOperator& q, Eigen::Index pinned, int threads, const std::atomic<bool>* stop)
      : q_(q), pinned_(pinned), threads_(threads), stop_(stop), inverse_diagonal_(q.diagonal().cwiseInverse()) {
    inverse_diagonal_(pinned) = 1.0;
  }
  Eigen::Index rows() const { return q_.space().size(); }
  Eigen::Index cols() const { return q_.space().size(); }
  template <typename Rhs>
  Eigen::Product<PinnedTranspose, Rhs, Eigen::AliasFreeProduct> operator*(const Eigen::MatrixBase<Rhs>& x) const {
    return Eigen::Product<PinnedTranspose, Rhs, Eigen::AliasFreeProduct>(*this, x.derived());
  }
  // y = A x; `x` must not alias `y`.
  void apply(const double* x, double* y) const {
    // Eigen's BiCGSTAB keeps its loop to itself: a cancellation leaves it from inside a product.
    if (stop_ && *stop_) throw Cancelled{};
    q_.apply(x, y, threads_);
    y[pinned_] = x[pinned_];
  }
  // BiCGSTAB asks for dst += alpha A x; one buffer serves every product.
  template <typename Dest, typename Rhs>
  void scale_and_add(Dest& dst, const Rhs& rhs, double alpha) const {
    if (product_.size() != rows()) product_.resize(rows());
    if constexpr (std::is_same_v<Rhs, Eigen::VectorXd>) {
      apply(rhs.data(), product_.data());
    } else {
      const Eigen::VectorXd x = rhs;
      apply(x.data(), product_.data());
    }
    dst += alpha * product_;
  }
  const Eigen::VectorXd& inverse_diagonal() const { return inverse_diagonal_; }

 private:
  const GeneratorOperator& q_;
  Eigen::Index pinned_;
  int threads_;
  const std::atomic<bool>* stop_;
  Eigen::VectorXd inverse_diagonal_;
  mutable Eigen::VectorXd product_;
};

// Jacobi: the diagonal of Q, which the operator knows without a matrix.
class InverseDiagonal {
 public:
  template <typename Matrix>
  InverseDiagonal& analyzePattern(const Matrix&) { return *this; }
  template <typename Matrix>
  InverseDiagonal& factorize(const Matrix& m) {
    inverse_ = &m.inverse_diagonal();
    return *this;
  }
  template <typename Matrix>
  InverseDiagonal& compute(const Matrix& m) { return factorize(m); }
  template <typename Rhs>
  auto solve(const Rhs& b) const { return inverse_->cwiseProduct(b); }
  Eigen::ComputationInfo info() const { return Eigen::Success; }

 private:
  const Eigen::VectorXd* inverse_ = nullptr;
};

}  // namespace
}  // namespace crawlq::analytic

namespace Eigen::internal {
template <typename Rhs>
struct generic_product_impl<crawlq::analytic::PinnedTranspose, Rhs, SparseShape, DenseShape, GemvProduct>
    : generic_product_impl_base<crawlq::analytic::PinnedTranspose, Rhs,
                                generic_product_impl<crawlq::analytic::PinnedTranspose, Rhs>> {
  template <typename Dest>
  static void scaleAndAddTo(Dest& dst, const crawlq::analytic::PinnedTranspose& lhs, const Rhs& rhs,
                            const double& alpha) {
    lhs.scale_and_add(dst, rhs, alpha);
  }
};
}  // namespace Eigen::internal

namespace crawlq::analytic {

StationaryResult IterativeSolver::solve(const GeneratorBlocks& blocks) const {
  const GeneratorOperator q(blocks.model(), blocks.arrivals());
  const Eigen::Index n = q.space().size();
  const bool warm = options_.initial_guess && options_.initial_guess->size() == n;
  StationaryResult result;
  // The pinned state should carry visible mass: the warm start's largest, else the empty system.
  Eigen::Index pinned = blocks.arrivals().recurrent_empty_phase();
  if (warm) options_.initial_guess->maxCoeff(&pinned);

  const PinnedTranspose system(q, pinned, std::max(1, options_.threads), options_.stop);
  Eigen::BiCGSTAB<PinnedTranspose, InverseDiagonal> bicgstab;
  bicgstab.setTolerance(options_.tolerance);
  bicgstab.setMaxIterations(options_.max_iterations);
  bicgstab.compute(system);
  const Eigen::VectorXd rhs = Eigen::VectorXd::Unit(n, pinned);
  Eigen::VectorXd x;
  try {
    x = warm ? Eigen::VectorXd(bicgstab.solveWithGuess(rhs, *options_.initial_guess / (*options_.initial_guess)(pinned)))
             : Eigen::VectorXd(bicgstab.solve(rhs));
  } catch (const Cancelled&) {
    result.summary.message = "cancelled";
    return result;
  }
  result.summary.iterations = static_cast<int>(bicgstab.iterations());
  if (bicgstab.info() != Eigen::Success) {
    result.summary.message = fmt::format("BiCGSTAB stopped after {} iterations at relative residual {:.3g}",
                                         bicgstab.iterations(), bicgstab.error());
    return result;
  }
  result.probabilities = x / x.sum();
  result.summary.status = SolverStatus::kConverged;
  result.summary.message = fmt::format("BiCGSTAB: {} iterations, relative residual {:.3g}",
                                       bicgstab.iterations(), bicgstab.error());
  return result;
}

}  // namespace crawlq::analytic
