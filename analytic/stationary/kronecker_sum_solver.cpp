#include "analytic/stationary/kronecker_sum_solver.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <stdexcept>
#include <vector>

namespace crawlq::analytic {

namespace {
// Below this many columns a factor's pass stays on one thread: a parallel region's start costs
// more than it shares.
constexpr Eigen::Index kParallelColumns = 1 << 14;
}  // namespace

KroneckerSumSolver::KroneckerSumSolver(const Eigen::MatrixXd& first,
                                       const Eigen::MatrixXd& repeated, int copies)
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

Eigen::VectorXd KroneckerSumSolver::solve(const Eigen::VectorXd& b, double shift,
                                          int threads) const {
  ComplexVector w = b.cast<Complex>();
  threads = std::max(threads, 1);
  transform(w, true, threads);
  // (shift - sum) x = b: solve (sum - shift) w = -b in the Schur basis.
  w = -w;
  back_substitute(w.data(), 0, Complex(-shift), threads);
  transform(w, false, threads);
  return w.real();
}

void KroneckerSumSolver::transform(ComplexVector& y, bool inverse, int threads) const {
  // The first factors' passes are long: each over the whole vector, its columns shared among
  // threads. Below them the remaining factors act within blocks, which the threads share whole.
  // Every entry goes through the same factors in the same order as on one thread: the same bits.
  Eigen::Index block = size_;
  int mode = 0;
  if (threads > 1) {
    for (; mode <= copies_; ++mode) {
      const Eigen::Index inner = block / (mode == 0 ? first_size_ : repeated_size_);
      if (inner < kParallelColumns) break;
      for (Eigen::Index b = 0; b < size_; b += block)
        mix_factor(y.data() + b, mode, inverse, threads);
      block = inner;
    }
  }
  if (mode > copies_) return;
  const Eigen::Index blocks = size_ / block;
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && blocks > 1)
  for (Eigen::Index b = 0; b < blocks; ++b) transform_from(y.data() + b * block, mode, inverse);
}

void KroneckerSumSolver::mix_factor(Complex* y, int mode, bool inverse, int threads) const {
  const ComplexMatrix& unitary = mode == 0 ? first_unitary_ : repeated_unitary_;
  const Eigen::Index width = unitary.rows();
  Eigen::Index inner = 1;
  for (int m = copies_; m > mode; --m) inner *= repeated_size_;
  // One factor's phases are `inner` apart: each column of phases mixed in place through a small
  // buffer (no copy of the vector), U^* on the way in, U on the way out. Columns are independent,
  // each computed alike by any thread.
  const auto mix = [&](Eigen::Index q, Complex* mixed) {
    for (Eigen::Index to = 0; to < width; ++to) {
      Complex sum(0.0);
      for (Eigen::Index from = 0; from < width; ++from)
        sum += (inverse ? std::conj(unitary(from, to)) : unitary(to, from)) * y[from * inner + q];
      mixed[to] = sum;
    }
    for (Eigen::Index to = 0; to < width; ++to) y[to * inner + q] = mixed[to];
  };
  if (threads > 1 && inner >= kParallelColumns) {
#pragma omp parallel num_threads(threads)
    {
      std::vector<Complex> mixed(static_cast<std::size_t>(width));
#pragma omp for schedule(static)
      for (Eigen::Index q = 0; q < inner; ++q) mix(q, mixed.data());
    }
  } else {
    std::vector<Complex> mixed(static_cast<std::size_t>(width));
    for (Eigen::Index q = 0; q < inner; ++q) mix(q, mixed.data());
  }
}

void KroneckerSumSolver::transform_from(Complex* y, int mode, bool inverse) const {
  mix_factor(y, mode, inverse, 1);
  // The factors act on different indices and commute: the later ones go sub-block by sub-block,
  // which stay in cache once small, instead of a pass over the whole vector each.
  if (mode == copies_) return;
  Eigen::Index inner = 1;
  for (int m = copies_; m > mode; --m) inner *= repeated_size_;
  const Eigen::Index width = mode == 0 ? first_size_ : repeated_size_;
  for (Eigen::Index r = 0; r < width; ++r) transform_from(y + r * inner, mode + 1, inverse);
}

void KroneckerSumSolver::back_substitute(Complex* w, int mode, Complex shift, int threads) const {
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
  // solved later ones (entry by entry, so long blocks are shared among threads), then solves the
  // remaining factors with its diagonal entry added to the shift.
  for (Eigen::Index r = width - 1; r >= 0; --r) {
    Complex* block = w + r * inner;
    for (Eigen::Index c = r + 1; c < width; ++c) {
      const Complex coupling = t(r, c);
      if (coupling == Complex(0.0)) continue;
      const Complex* solved = w + c * inner;
      if (threads > 1 && inner >= kParallelColumns) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (Eigen::Index q = 0; q < inner; ++q) block[q] -= coupling * solved[q];
      } else {
        for (Eigen::Index q = 0; q < inner; ++q) block[q] -= coupling * solved[q];
      }
    }
    back_substitute(block, mode + 1, shift + t(r, r), threads);
  }
}

}  // namespace crawlq::analytic
