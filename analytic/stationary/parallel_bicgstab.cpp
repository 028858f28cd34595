#include "analytic/stationary/parallel_bicgstab.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "analytic/adaptive_threads.hpp"

namespace crawlq::analytic {

namespace {

using Index = Eigen::Index;

// The unit of both the work split and the sums: fixed, so a dot product's partial sums and their
// order never depend on the thread count.
constexpr Index kChunk = Index{1} << 14;
// How often a converged recursion is checked against the true residual and restarted.
constexpr int kTrueResidualChecks = 3;

// body(begin, end, chunk) over the fixed chunks of [0, n), side by side; returns nothing.
template <typename Body>
void for_chunks(Index n, int threads, Body&& body) {
  const Index chunks = (n + kChunk - 1) / kChunk;
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && chunks > 1)
  for (Index c = 0; c < chunks; ++c) body(c * kChunk, std::min(n, (c + 1) * kChunk), c);
}

// Up to three sums at once, each chunk's partial sums kept and then added in chunk order.
template <int Count, typename Body>
std::array<double, Count> sums(Index n, int threads, Body&& body) {
  const Index chunks = (n + kChunk - 1) / kChunk;
  std::vector<std::array<double, Count>> partial(static_cast<std::size_t>(chunks));
  for_chunks(n, threads, [&](Index begin, Index end, Index c) {
    std::array<double, Count> s{};
    for (Index i = begin; i < end; ++i) body(i, s);
    partial[static_cast<std::size_t>(c)] = s;
  });
  std::array<double, Count> total{};
  for (const auto& s : partial)
    for (int k = 0; k < Count; ++k) total[k] += s[k];
  return total;
}

// b's entries as the solver reads them, from a vector or from its one nonzero entry.
double entry(const Eigen::VectorXd& b, Index i) { return b[i]; }
double entry(const UnitRightHandSide& b, Index i) { return i == b.index ? b.value : 0.0; }
Index length(const Eigen::VectorXd& b) { return b.size(); }
Index length(const UnitRightHandSide& b) { return b.size; }
double squared_norm(const Eigen::VectorXd& b, int threads) {
  return sums<1>(b.size(), threads, [&](Index i, auto& s) { s[0] += b[i] * b[i]; })[0];
}
// The vector's chunked sum adds only zeros to this.
double squared_norm(const UnitRightHandSide& b, int) { return b.value * b.value; }

template <typename RightHandSide>
KrylovSummary bicgstab(const LinearOperator& a, const LinearOperator& preconditioner,
                       const RightHandSide& b, Eigen::VectorXd& x, const KrylovOptions& options);

}  // namespace

Eigen::VectorXd parallel_zeros(Index n, int threads) {
  Eigen::VectorXd zeros(n);
  for_chunks(n, std::max(1, threads), [&](Index begin, Index end, Index) {
    std::fill(zeros.data() + begin, zeros.data() + end, 0.0);
  });
  return zeros;
}

KrylovSummary parallel_bicgstab(const LinearOperator& a, const Eigen::VectorXd& inverse_diagonal,
                                const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                const KrylovOptions& options) {
  const double* d = inverse_diagonal.data();
  const LinearOperator jacobi = [&](const double* in, double* out, int threads_now) {
    for_chunks(b.size(), threads_now, [&](Index begin, Index end, Index) {
      for (Index i = begin; i < end; ++i) out[i] = d[i] * in[i];
    });
  };
  return parallel_bicgstab(a, jacobi, b, x, options);
}

KrylovSummary parallel_bicgstab(const LinearOperator& a, const LinearOperator& preconditioner,
                                const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                const KrylovOptions& options) {
  return bicgstab(a, preconditioner, b, x, options);
}

KrylovSummary parallel_bicgstab(const LinearOperator& a, const LinearOperator& preconditioner,
                                const UnitRightHandSide& b, Eigen::VectorXd& x,
                                const KrylovOptions& options) {
  return bicgstab(a, preconditioner, b, x, options);
}

namespace {

template <typename RightHandSide>
KrylovSummary bicgstab(const LinearOperator& a, const LinearOperator& preconditioner,
                       const RightHandSide& b, Eigen::VectorXd& x, const KrylovOptions& options) {
  const Index n = length(b);
  AdaptiveThreads adaptive(options.threads);
  // The threads of the step about to start: half an iteration is a step, so that a machine whose
  // cores are held is seen soon. The first step is the setup, whose product and passes would
  // otherwise run on every thread whatever the cores.
  int threads = adaptive.next_step();
  const auto next_step = [&] { threads = adaptive.next_step(); };
  KrylovSummary summary;
  Eigen::VectorXd r(n), r0(n), p = parallel_zeros(n, threads), v = parallel_zeros(n, threads), y(n),
                               z(n), t(n);

  const double b_norm2 = squared_norm(b, threads);
  if (b_norm2 == 0) {
    x.setZero();
    summary.converged = true;
    return summary;
  }
  const double threshold2 = options.tolerance * options.tolerance * b_norm2;
  // r = b - A x, the recursion's start (and its restart when r0 and r turn orthogonal).
  const auto residual = [&] {
    a(x.data(), t.data(), threads);
    return sums<1>(n, threads, [&](Index i, auto& s) {
      r[i] = r0[i] = entry(b, i) - t[i];
      s[0] += r[i] * r[i];
    })[0];
  };
  double r0_norm2 = residual(), r_norm2 = r0_norm2;
  // r0 . r for the next iteration's rho, summed in the pass that last wrote r (r = r0 after a
  // restart).
  double r0_dot_r = r0_norm2;
  double rho = 1, alpha = 1, w = 1;
  const double epsilon2 =
      std::numeric_limits<double>::epsilon() * std::numeric_limits<double>::epsilon();

  // The recursion's residual drifts from b - A x in ill-conditioned systems (rates far apart): at
  // its convergence the true residual is taken, and the recursion restarted from x while it is too
  // large.
  int checks_left = kTrueResidualChecks;
  while (summary.iterations < options.max_iterations) {
    if (r_norm2 <= threshold2) {
      if (checks_left-- == 0) break;
      r0_dot_r = r0_norm2 = r_norm2 = residual();
      if (r_norm2 <= threshold2) break;
      rho = alpha = w = 1;
      p.setZero();
      v.setZero();
    }
    if (options.stop && *options.stop) {
      summary.cancelled = true;
      break;
    }
    next_step();
    const double rho_old = rho;
    rho = r0_dot_r;
    if (std::abs(rho) < epsilon2 * r0_norm2) {
      r0_norm2 = r_norm2 = residual();
      rho = r0_norm2;
      p.setZero();
      v.setZero();
      alpha = w = 1;
    }
    const double beta = (rho / rho_old) * (alpha / w);
    for_chunks(n, threads, [&](Index begin, Index end, Index) {
      for (Index i = begin; i < end; ++i) p[i] = r[i] + beta * (p[i] - w * v[i]);
    });
    preconditioner(p.data(), y.data(), threads);
    a(y.data(), v.data(), threads);
    alpha = rho / sums<1>(n, threads, [&](Index i, auto& s) { s[0] += r0[i] * v[i]; })[0];
    // s = r - alpha v overwrites r: r is not needed again this iteration.
    for_chunks(n, threads, [&](Index begin, Index end, Index) {
      for (Index i = begin; i < end; ++i) r[i] -= alpha * v[i];
    });
    next_step();
    preconditioner(r.data(), z.data(), threads);
    a(z.data(), t.data(), threads);
    const auto ts = sums<2>(n, threads, [&](Index i, auto& s) {
      s[0] += t[i] * r[i];
      s[1] += t[i] * t[i];
    });
    w = ts[1] > 0 ? ts[0] / ts[1] : 0.0;
    const auto rs = sums<2>(n, threads, [&](Index i, auto& s) {
      x[i] += alpha * y[i] + w * z[i];
      r[i] -= w * t[i];
      s[0] += r[i] * r[i];
      s[1] += r0[i] * r[i];
    });
    r_norm2 = rs[0];
    r0_dot_r = rs[1];
    ++summary.iterations;
  }
  summary.relative_residual = std::sqrt(r_norm2 / b_norm2);
  summary.converged = !summary.cancelled && r_norm2 <= threshold2;
  return summary;
}

}  // namespace

}  // namespace crawlq::analytic
