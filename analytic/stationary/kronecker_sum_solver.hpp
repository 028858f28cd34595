#pragma once
// Direct solution of -(S (+) G (+) ... (+) G) x = b, the Kronecker sum of one generator S and n
// copies of another G (the tagged page's diagonal blocks: its server and the clocks of the pages
// ahead and its own). With complex Schur forms S = U T U*, G = V L V*, the sum is (U (x) V (x)...)
// times the sum of the triangular factors times its inverse, and a Kronecker sum of
// upper-triangular matrices is upper triangular in the lexicographic order: one back substitution,
// about as costly as a few products with the sum, where an iterative solve takes hundreds of them
// and storing it costs gigabytes at K = 20. Schur forms are backward stable, even for a defective G
// (an Erlang clock).
#include <Eigen/Core>
#include <complex>

namespace crawlq::analytic {

class KroneckerSumSolver {
 public:
  KroneckerSumSolver(const Eigen::MatrixXd& first, const Eigen::MatrixXd& repeated, int copies);
  Eigen::Index size() const { return size_; }
  // x with (shift I - first (+) repeated^(+)copies) x = b; b in lexicographic order, `first`'s
  // index slowest. A shift u > 0 gives the resolvent of Theorem 4's transforms.
  // `threads` share the long passes; the bits are the same for any count.
  Eigen::VectorXd solve(const Eigen::VectorXd& b, double shift = 0, int threads = 1) const;

 private:
  using Complex = std::complex<double>;
  using ComplexMatrix = Eigen::MatrixXcd;
  using ComplexVector = Eigen::VectorXcd;

  // y = (U_first (x) U_rep (x) ...) y, or its adjoint when `inverse`, in place.
  void transform(ComplexVector& y, bool inverse, int threads) const;
  // One factor over one block of its width times the later factors' sizes.
  void mix_factor(Complex* y, int mode, bool inverse, int threads) const;
  // The factors from `mode` on over one such block, on one thread.
  void transform_from(Complex* y, int mode, bool inverse) const;
  // (shift + the triangular sum of factors mode..copies) w = rhs over one contiguous block, in
  // place.
  void back_substitute(Complex* w, int mode, Complex shift, int threads) const;

  int copies_;
  Eigen::Index first_size_, repeated_size_, size_;
  ComplexMatrix first_unitary_, first_triangular_, repeated_unitary_, repeated_triangular_;
};

}  // namespace crawlq::analytic
