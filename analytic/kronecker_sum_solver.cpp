#include "analytic/kronecker_sum_solver.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <stdexcept>

namespace crawlq::analytic {

KroneckerSumSolver::KroneckerSumSolver(const Eigen::MatrixXd& first, const Eigen::MatrixXd& repeated, int copies)
    : copies_(copies), first_size_(first.rows()), repeated_size_(repeated.rows()) {
  size_ = first_size_;
  for (int i = 0; i < copies; ++i) size_ *= repeated_size_;
  const Eigen::ComplexSchur<Eigen::MatrixXcd> first_schur(first.cast<Complex>());
  const Eigen::ComplexSchur<Eigen::MatrixXcd> repeated_schur(repeated.cast<Complex>());
  if (first_schur.info() != Eigen::Success || repeated_schur.info() != Eigen::Success)
    throw std::runtime_error("tagged-page chain: no Schur form of the service or clock generator");
  first_unitary_ = first_schur.matrixU();
  first_triangular_ = first_schur.matrixT();
  repeated_unitary_ = repeated_schur.matrixU();
  repeated_triangular_ = repeated_schur.matrixT();
}

Eigen::VectorXd KroneckerSumSolver::solve(const Eigen::VectorXd& b, double shift) const {
  ComplexVector w = b.cast<Complex>();
  transform(w, 0, first_unitary_.adjoint());
  for (int mode = 1; mode <= copies_; ++mode) transform(w, mode, repeated_unitary_.adjoint());
  // (shift - sum) x = b: solve (sum - shift) w = -b in the Schur basis.
  w = -w;
  back_substitute(w.data(), 0, Complex(-shift));
  transform(w, 0, first_unitary_);
  for (int mode = 1; mode <= copies_; ++mode) transform(w, mode, repeated_unitary_);
  return w.real();
}

void KroneckerSumSolver::transform(ComplexVector& y, int mode, const ComplexMatrix& a) const {
  const Eigen::Index width = a.rows();
  Eigen::Index inner = 1;
  for (int m = copies_; m > mode; --m) inner *= repeated_size_;
  const Eigen::Index outer = size_ / (inner * width);
  // One factor's phases are `inner` apart: mix whole rows of that stride, contiguous inside.
  ComplexVector mixed(width * inner);
  for (Eigen::Index o = 0; o < outer; ++o) {
    Complex* base = y.data() + o * width * inner;
    mixed.setZero();
    for (Eigen::Index to = 0; to < width; ++to)
      for (Eigen::Index from = 0; from < width; ++from) {
        const Complex entry = a(to, from);
        if (entry == Complex(0.0)) continue;
        const Complex* source = base + from * inner;
        Complex* target = mixed.data() + to * inner;
        for (Eigen::Index q = 0; q < inner; ++q) target[q] += entry * source[q];
      }
    std::copy(mixed.data(), mixed.data() + width * inner, base);
  }
}

void KroneckerSumSolver::back_substitute(Complex* w, int mode, Complex shift) const {
  const ComplexMatrix& t = mode == 0 ? first_triangular_ : repeated_triangular_;
  const Eigen::Index width = t.rows();
  if (mode == copies_) {
    for (Eigen::Index r = width - 1; r >= 0; --r) {
      Complex sum = w[r];
      for (Eigen::Index c = r + 1; c < width; ++c) sum -= t(r, c) * w[c];
      w[r] = sum / (shift + t(r, r));
    }
    return;
  }
  Eigen::Index inner = 1;
  for (int m = copies_; m > mode; --m) inner *= repeated_size_;
  // The factor's last phase first: its block depends on no other; each earlier block subtracts the
  // solved later ones, then solves the remaining factors with its diagonal entry added to the shift.
  for (Eigen::Index r = width - 1; r >= 0; --r) {
    Complex* block = w + r * inner;
    for (Eigen::Index c = r + 1; c < width; ++c) {
      const Complex coupling = t(r, c);
      if (coupling == Complex(0.0)) continue;
      const Complex* solved = w + c * inner;
      for (Eigen::Index q = 0; q < inner; ++q) block[q] -= coupling * solved[q];
    }
    back_substitute(block, mode + 1, shift + t(r, r));
  }
}

}  // namespace crawlq::analytic
