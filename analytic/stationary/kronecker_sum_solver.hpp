#pragma once
// Direct solution of -(S (+) G (+) ... (+) G) x = b, the Kronecker sum of one generator S and n
// copies of another G (the tagged page's diagonal blocks: its server and the clocks of the pages
// ahead and its own). With Schur forms S = U T U*, G = V L V*, the sum is (U (x) V (x)...) times
// the sum of the triangular factors times its inverse, and a Kronecker sum of upper-triangular
// matrices is upper triangular in the lexicographic order: one back substitution, about as costly
// as a few products with the sum, where an iterative solve takes hundreds of them and storing it
// costs gigabytes at K = 20. Schur forms are backward stable, even for a defective G (an Erlang
// clock).
//
// When both generators have real eigenvalues (every acyclic phase-type law: Erlang, Coxian,
// hyperexponential, and the paper's) their real Schur forms are triangular and the whole solve runs
// in real arithmetic, a quarter of the complex one's multiplications; otherwise in complex.
#include <Eigen/Core>
#include <complex>
#include <optional>
#include <vector>

namespace crawlq::analytic {

class KroneckerSumSolver {
 public:
  KroneckerSumSolver(const Eigen::MatrixXd& first, const Eigen::MatrixXd& repeated, int copies);
  Eigen::Index size() const { return size_; }
  // Whether the solve runs in real arithmetic (both spectra real).
  bool real_arithmetic() const { return real_.has_value(); }
  // x with (shift I - first (+) repeated^(+)copies) x = b; b in lexicographic order, `first`'s
  // index slowest. A shift u > 0 gives the resolvent of Theorem 4's transforms.
  // `threads` share the long passes; the bits are the same for any count.
  Eigen::VectorXd solve(const Eigen::VectorXd& b, double shift = 0, int threads = 1) const;
  // The same, b (size() entries) overwritten by x: in real arithmetic no vector of the block's size
  // is allocated (at K = 24 the largest block is 134 MB, fresh memory each time on a VM).
  void solve_in_place(double* b, double shift = 0, int threads = 1) const;

  // The Schur factors in one arithmetic: [0] of `first`, [1] of `repeated`.
  template <typename Scalar>
  struct Factors {
    using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
    Matrix unitary[2], adjoint[2], triangular[2];
  };

 private:
  // w = (shift I - sum)^-1 w in place.
  template <typename Scalar>
  void solve_with(const Factors<Scalar>& factors, Scalar* w, double shift, int threads) const;
  // y = (U_first (x) U_rep (x) ...) y, or its adjoint when `inverse`, in place.
  template <typename Scalar>
  void transform(const Factors<Scalar>& factors, Scalar* y, bool inverse, int threads) const;
  // (shift + the triangular sum of factors mode..copies) w = rhs over one contiguous block, in
  // place.
  template <typename Scalar>
  void back_substitute(const Factors<Scalar>& factors, Scalar* w, int mode, Scalar shift,
                       int threads) const;

  Eigen::Index width(int mode) const { return mode == 0 ? first_size_ : repeated_size_; }
  // The entries between two phases of factor `mode`: the later factors' sizes multiplied.
  Eigen::Index stride(int mode) const { return strides_[static_cast<std::size_t>(mode)]; }

  int copies_;
  Eigen::Index first_size_, repeated_size_, size_;
  std::vector<Eigen::Index> strides_;
  std::optional<Factors<double>> real_;
  std::optional<Factors<std::complex<double>>> complex_;
};

}  // namespace crawlq::analytic
