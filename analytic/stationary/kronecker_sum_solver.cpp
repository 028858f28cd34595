#include "analytic/stationary/kronecker_sum_solver.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace crawlq::analytic {

namespace {

using Index = Eigen::Index;

// A factor whose phases span more entries than this is applied in a pass over the whole vector,
// its columns shared among threads; the later factors go cache block by cache block, each block
// through all of them while it stays in L2.
constexpr Index kCacheEntries = Index{1} << 14;
// Columns handed to a thread at a time in a long pass, and mixed through the buffer at once.
constexpr Index kColumns = 256;
// Below this many columns a back substitution's update stays on one thread: a parallel region's
// start costs more than it shares.
constexpr Index kParallelColumns = Index{1} << 14;

// The columns [begin, end) of `blocks` consecutive blocks of width x inner entries, each column's
// phases mixed by `u` in place. A column's sums run over the phases in the same order whoever
// computes it and however many columns go at once: the same bits for any thread count.
template <typename Scalar, typename Matrix>
void mix(const Matrix& u, Scalar* y, Index blocks, Index inner, Index begin, Index end,
         std::vector<Scalar>& buffer) {
  const Index width = u.rows();
  const Index span = width * inner;
  if (width == 1) {
    const Scalar a = u(0, 0);
    for (Index b = 0; b < blocks; ++b)
      for (Index q = begin; q < end; ++q) y[b * span + q] *= a;
    return;
  }
  if (width == 2) {  // the paper's clocks and server: no buffer, each pair read once
    const Scalar a = u(0, 0), c = u(0, 1), d = u(1, 0), e = u(1, 1);
    for (Index b = 0; b < blocks; ++b) {
      Scalar* first = y + b * span;
      Scalar* second = first + inner;
      for (Index q = begin; q < end; ++q) {
        const Scalar s = first[q], t = second[q];
        first[q] = a * s + c * t;
        second[q] = d * s + e * t;
      }
    }
    return;
  }
  buffer.resize(static_cast<std::size_t>(width * kColumns));
  for (Index b = 0; b < blocks; ++b) {
    Scalar* block = y + b * span;
    for (Index from_q = begin; from_q < end; from_q += kColumns) {
      const Index n = std::min(kColumns, end - from_q);
      for (Index to = 0; to < width; ++to) {
        Scalar* sum = buffer.data() + to * kColumns;
        std::fill(sum, sum + n, Scalar(0));
        for (Index from = 0; from < width; ++from) {
          const Scalar coefficient = u(to, from);
          const Scalar* source = block + from * inner + from_q;
          for (Index q = 0; q < n; ++q) sum[q] += coefficient * source[q];
        }
      }
      for (Index to = 0; to < width; ++to)
        std::copy(buffer.data() + to * kColumns, buffer.data() + to * kColumns + n,
                  block + to * inner + from_q);
    }
  }
}

bool triangular(const Eigen::MatrixXd& t) {
  for (Index i = 1; i < t.rows(); ++i)
    if (t(i, i - 1) != 0) return false;
  return true;
}

template <typename Scalar, typename Schur>
void put_factor(KroneckerSumSolver::Factors<Scalar>& factors, int which, const Schur& schur) {
  factors.unitary[which] = schur.matrixU();
  factors.adjoint[which] = factors.unitary[which].adjoint();
  factors.triangular[which] = schur.matrixT();
}

}  // namespace

KroneckerSumSolver::KroneckerSumSolver(const Eigen::MatrixXd& first,
                                       const Eigen::MatrixXd& repeated, int copies)
    : copies_(copies), first_size_(first.rows()), repeated_size_(repeated.rows()) {
  strides_.assign(static_cast<std::size_t>(copies) + 1, 1);
  for (int mode = copies - 1; mode >= 0; --mode)
    strides_[static_cast<std::size_t>(mode)] =
        strides_[static_cast<std::size_t>(mode) + 1] * repeated_size_;
  size_ = first_size_ * strides_[0];
  const Eigen::RealSchur<Eigen::MatrixXd> first_real(first), repeated_real(repeated);
  if (first_real.info() == Eigen::Success && repeated_real.info() == Eigen::Success &&
      triangular(first_real.matrixT()) && triangular(repeated_real.matrixT())) {
    real_.emplace();
    put_factor(*real_, 0, first_real);
    put_factor(*real_, 1, repeated_real);
    return;
  }
  const Eigen::ComplexSchur<Eigen::MatrixXcd> first_schur(first.cast<std::complex<double>>());
  const Eigen::ComplexSchur<Eigen::MatrixXcd> repeated_schur(repeated.cast<std::complex<double>>());
  if (first_schur.info() != Eigen::Success || repeated_schur.info() != Eigen::Success)
    throw std::runtime_error("tagged-page chain: no Schur form of the service or clock generator");
  complex_.emplace();
  put_factor(*complex_, 0, first_schur);
  put_factor(*complex_, 1, repeated_schur);
}

Eigen::VectorXd KroneckerSumSolver::solve(const Eigen::VectorXd& b, double shift,
                                          int threads) const {
  Eigen::VectorXd x = b;
  solve_in_place(x.data(), shift, threads);
  return x;
}

void KroneckerSumSolver::solve_in_place(double* b, double shift, int threads) const {
  threads = std::max(threads, 1);
  if (real_) {
    solve_with(*real_, b, shift, threads);
    return;
  }
  Eigen::Map<Eigen::VectorXd> x(b, size_);
  Eigen::VectorXcd w = x.cast<std::complex<double>>();
  solve_with(*complex_, w.data(), shift, threads);
  x = w.real();
}

template <typename Scalar>
void KroneckerSumSolver::solve_with(const Factors<Scalar>& factors, Scalar* w, double shift,
                                    int threads) const {
  transform(factors, w, true, threads);
  // (shift - sum) x = b: solve (sum - shift) w = -b in the Schur basis.
  Eigen::Map<Eigen::Matrix<Scalar, Eigen::Dynamic, 1>> negated(w, size_);
  negated = -negated;
  back_substitute(factors, w, 0, Scalar(-shift), threads);
  transform(factors, w, false, threads);
}

template <typename Scalar>
void KroneckerSumSolver::transform(const Factors<Scalar>& factors, Scalar* y, bool inverse,
                                   int threads) const {
  const auto matrix = [&](int mode) -> const typename Factors<Scalar>::Matrix& {
    const int which = mode == 0 ? 0 : 1;
    return inverse ? factors.adjoint[which] : factors.unitary[which];
  };
  // The factors act on different indices and commute, so any order gives the same product; each
  // entry goes through them in the same order on any thread count.
  int mode = 0;
  for (; mode <= copies_ && width(mode) * stride(mode) > kCacheEntries; ++mode) {
    const Index inner = stride(mode), span = width(mode) * inner, blocks = size_ / span;
    const Index chunks = (inner + kColumns - 1) / kColumns;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
      std::vector<Scalar> buffer;
#pragma omp for schedule(static) collapse(2)
      for (Index b = 0; b < blocks; ++b)
        for (Index c = 0; c < chunks; ++c)
          mix(matrix(mode), y + b * span, 1, inner, c * kColumns,
              std::min(inner, (c + 1) * kColumns), buffer);
    }
  }
  if (mode > copies_) return;
  const Index span = width(mode) * stride(mode), blocks = size_ / span;
#pragma omp parallel num_threads(threads) if (threads > 1 && blocks > 1)
  {
    std::vector<Scalar> buffer;
#pragma omp for schedule(static)
    for (Index b = 0; b < blocks; ++b)
      for (int later = mode; later <= copies_; ++later) {
        const Index inner = stride(later);
        mix(matrix(later), y + b * span, span / (width(later) * inner), inner, 0, inner, buffer);
      }
  }
}

template <typename Scalar>
void KroneckerSumSolver::back_substitute(const Factors<Scalar>& factors, Scalar* w, int mode,
                                         Scalar shift, int threads) const {
  const auto& t = factors.triangular[mode == 0 ? 0 : 1];
  const Index phases = t.rows();
  if (mode == copies_) {
    for (Index r = phases - 1; r >= 0; --r) {
      Scalar sum = w[r];
      for (Index c = r + 1; c < phases; ++c) sum -= t(r, c) * w[c];
      w[r] = sum / (shift + t(r, r));
    }
    return;
  }
  const Index inner = stride(mode);
  const bool parallel = threads > 1 && inner >= kParallelColumns;
  // The factor's last phase first: its block depends on no other; each earlier block subtracts the
  // solved later ones (entry by entry, so long blocks are shared among threads), then solves the
  // remaining factors with its diagonal entry added to the shift.
  for (Index r = phases - 1; r >= 0; --r) {
    Scalar* block = w + r * inner;
    for (Index c = r + 1; c < phases; ++c) {
      const Scalar coupling = t(r, c);
      if (coupling == Scalar(0)) continue;
      const Scalar* solved = w + c * inner;
      // Not an `if` clause: even a team of one costs a call into the runtime, and this runs once
      // per pair of entries at the deepest factor.
      if (parallel) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (Index q = 0; q < inner; ++q) block[q] -= coupling * solved[q];
      } else {
        for (Index q = 0; q < inner; ++q) block[q] -= coupling * solved[q];
      }
    }
    back_substitute(factors, block, mode + 1, shift + t(r, r), threads);
  }
}

}  // namespace crawlq::analytic
