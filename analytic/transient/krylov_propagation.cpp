#include "analytic/transient/krylov_propagation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <unsupported/Eigen/MatrixFunctions>

#include "analytic/adaptive_threads.hpp"
#include "analytic/cancelled.hpp"
#include "analytic/transient/vector_blocks.hpp"

namespace crawlq::analytic {

namespace {

// The error a step makes whatever its length, relative to its vector's size.
constexpr double kRounding = 1e-15;
// x A below this many roundings of ||A||_1 ||x||_1 is noise: x is at the fixed point.
constexpr double kNoiseRoundings = 2;

double dot(const Eigen::VectorXd& a, const Eigen::VectorXd& b, int threads) {
  return sum_vector_blocks(a.size(), threads, [&](Eigen::Index begin, Eigen::Index length) {
    return a.segment(begin, length).dot(b.segment(begin, length));
  });
}

double sum(const Eigen::VectorXd& a, int threads) {
  return sum_vector_blocks(a.size(), threads, [&](Eigen::Index begin, Eigen::Index length) {
    return a.segment(begin, length).sum();
  });
}

double norm1(const Eigen::VectorXd& a, int threads) {
  return sum_vector_blocks(a.size(), threads, [&](Eigen::Index begin, Eigen::Index length) {
    return a.segment(begin, length).lpNorm<1>();
  });
}

// y -= a x
void subtract(double a, const Eigen::VectorXd& x, Eigen::VectorXd& y, int threads) {
  for_vector_blocks(x.size(), threads, [&](Eigen::Index begin, Eigen::Index length) {
    y.segment(begin, length) -= a * x.segment(begin, length);
  });
}

// out = base + sum_j coefficients(j) basis[j], in one pass.
void combine(const std::vector<Eigen::VectorXd>& basis, const Eigen::VectorXd& coefficients,
             const Eigen::VectorXd* base, Eigen::VectorXd& out, int threads) {
  for_vector_blocks(out.size(), threads, [&](Eigen::Index begin, Eigen::Index length) {
    auto piece = out.segment(begin, length);
    if (base)
      piece = base->segment(begin, length);
    else
      piece.setZero();
    for (Eigen::Index j = 0; j < coefficients.size(); ++j)
      piece += coefficients(j) * basis[static_cast<std::size_t>(j)].segment(begin, length);
  });
}

// exp(s H) e1 and its integral over [0, s], both times beta, from one exponential of the
// (k + 1)-square [[s H, s e1], [0, 0]] (whose last column holds phi_1(s H) s e1).
struct Projected {
  Eigen::VectorXd at, area;
};
Projected project(const Eigen::MatrixXd& hessenberg, double s, double beta) {
  const Eigen::Index k = hessenberg.rows();
  Eigen::MatrixXd augmented = Eigen::MatrixXd::Zero(k + 1, k + 1);
  augmented.topLeftCorner(k, k) = s * hessenberg;
  augmented(0, k) = s;
  const Eigen::MatrixXd e = augmented.exp();
  return {beta * e.col(0).head(k), beta * e.col(k).head(k)};
}

// The integral over [0, s] of |e_k^T y(u)|, y(u) = beta exp(u H) e1, k the last coordinate: the
// basis's residual is w e_k^T y(u), and as exp(t Q) cannot enlarge an l1 norm the step's error is
// at most ||w||_1 times this integral. Taken on kResidualPoints pieces, each by the larger of its
// ends' values (the coordinate can change sign within a step, where its plain integral cancels).
constexpr int kResidualPoints = 64;
double residual_weight(const Eigen::MatrixXd& hessenberg, double s, double beta) {
  const Eigen::Index k = hessenberg.rows();
  const double piece = s / kResidualPoints;
  const Eigen::MatrixXd advance = (piece * hessenberg).exp();
  Eigen::VectorXd y = Eigen::VectorXd::Zero(k);
  y(0) = beta;
  double previous = k == 1 ? beta : 0.0, integral = 0;
  for (int i = 0; i < kResidualPoints; ++i) {
    y = advance * y;
    const double now = std::abs(y(k - 1));
    integral += piece * std::max(previous, now);
    previous = now;
  }
  return integral;
}

}  // namespace

int krylov_dimension_within(Eigen::Index size, double bytes) {
  // The basis, and the state, its integral and the next product beside it.
  const double vectors = bytes / (8.0 * static_cast<double>(std::max<Eigen::Index>(size, 1)));
  const double dimension = std::floor(vectors) - 4;
  return dimension < 2 ? 0 : static_cast<int>(std::min(dimension, 1e6));
}

KrylovExponentialSummary krylov_propagate(const VectorProduct& product,
                                          const Eigen::VectorXd& start,
                                          const std::vector<double>& times,
                                          const KrylovExponentialOptions& options,
                                          const ReachedTime& reached) {
  if (options.dimension < 1) throw std::invalid_argument("krylov_propagate: dimension below 1");
  KrylovExponentialSummary summary;
  const Eigen::Index n = start.size();
  // A step of the threads' verdict is a product and its Gram-Schmidt: a fixed count of threads
  // waited at each of a step's 60-odd passes for the one that shares its core with another
  // program (a stiff transient at K = 15 took 3.9 times one thread's time on two, one core busy).
  AdaptiveThreads adaptive(std::max(1, options.threads));
  int threads = 1;
  Eigen::VectorXd x = start, area = Eigen::VectorXd::Zero(n), w(n);
  std::size_t next = 0;
  while (next < times.size() && times[next] <= 0) reached(next++, x, area);
  if (next == times.size()) return summary;
  const double horizon = times.back();
  // Each step's error may be its share of the tolerance, in proportion to its length.
  const double tolerance_rate = options.tolerance / horizon;
  std::vector<Eigen::VectorXd> basis;
  // The first step spans a few of the fastest jumps; each later one what its error allows.
  double now = 0, step = options.norm > 0
                             ? std::min(horizon, options.dimension / (4 * options.norm))
                             : horizon;
  // Per basis vector, its entries' sum: the mass a projection keeps, read without a pass.
  std::vector<double> basis_sums;
  while (next < times.size()) {
    threads = adaptive.next_step();
    const double beta = std::sqrt(dot(x, x, threads));
    if (beta == 0) {  // nothing left to move
      for (; next < times.size(); ++next) reached(next, x, area);
      break;
    }
    // Arnoldi with modified Gram-Schmidt: A V_k = V_k H_k + w e_k^T.
    const int m = options.dimension;
    if (basis.empty()) basis.assign(1, Eigen::VectorXd());
    basis[0] = x / beta;
    const double mass = sum(x, threads), magnitude = norm1(x, threads);
    basis_sums.assign(1, mass / beta);
    Eigen::MatrixXd h = Eigen::MatrixXd::Zero(m, m);
    int k = 0;
    for (int j = 0; j < m; ++j) {
      if (options.stop && options.stop->load()) throw Cancelled();
      if (options.most_products > 0 && summary.products >= options.most_products)
        throw KrylovWorkExceeded(now);
      if (j > 0) threads = adaptive.next_step();
      product(basis[static_cast<std::size_t>(j)], w, threads);
      ++summary.products;
      if (j == 0) {
        // x(t) moves from x by at most t ||x A||_1 (exp(t A) cannot enlarge an l1 norm). Where
        // that is within the tolerance, or x A is rounding's noise, x is the fixed point: every
        // later step would only add rounding (a projection of norm q t loses about 1e-18 q t of
        // the mass, in the last bits of a long horizon's every step).
        const double drift = beta * norm1(w, threads);
        const double noise =
            kNoiseRoundings * std::numeric_limits<double>::epsilon() * options.norm * magnitude;
        if (drift <= std::max(0.5 * tolerance_rate, noise)) {
          for (; next < times.size(); ++next) reached(next, x, area + (times[next] - now) * x);
          summary.error_estimate += drift * (horizon - now);
          return summary;
        }
      }
      for (int i = 0; i <= j; ++i) {
        h(i, j) = dot(basis[static_cast<std::size_t>(i)], w, threads);
        subtract(h(i, j), basis[static_cast<std::size_t>(i)], w, threads);
      }
      k = j + 1;
      const double residual = std::sqrt(dot(w, w, threads));
      // A's image leaves the basis by less than the error any step may make per unit time: the
      // projection is exact to the tolerance for any step (the estimate below still reads w).
      if (residual == 0 || beta * norm1(w, threads) <= 0.5 * tolerance_rate) break;
      if (j + 1 < m) {
        h(j + 1, j) = residual;
        if (basis.size() < static_cast<std::size_t>(j + 2)) basis.emplace_back();
        basis[static_cast<std::size_t>(j + 1)] = w / residual;
        basis_sums.push_back(sum(basis[static_cast<std::size_t>(j + 1)], threads));
      }
    }
    const Eigen::MatrixXd hessenberg = h.topLeftCorner(k, k);
    // The step's error is at most ||w||_1 times residual_weight (in l1, as a distribution's error
    // is measured).
    const double residual_l1 = norm1(w, threads);
    const double remaining = horizon - now;
    step = std::min(step, remaining);
    Projected over_step;
    double error = 0;
    for (int tries = 0;; ++tries) {
      over_step = project(hessenberg, step, beta);
      error = residual_weight(hessenberg, step, beta) * residual_l1;
      // A generator keeps the mass: what the step lost or gained is part of its l1 error (and
      // shows a step too long for the quadrature of the residual to have seen).
      if (options.conserves_sum) {
        const Eigen::Map<const Eigen::VectorXd> sums(basis_sums.data(), k);
        // Beside the sum's rounding, the Arnoldi relation's: H is A's projection to about
        // epsilon ||A||, an error that the step's exponential carries over its length (on a stiff
        // chain, 10^-9 of the mass a unit of time where A's norm is 10^7, whatever the step).
        const double noise =
            (4 * k + step * options.norm) * std::numeric_limits<double>::epsilon() * magnitude;
        error = std::max(error, std::abs(over_step.at.dot(sums) - mass) - noise);
      }
      // Below rounding's reach the step is as good as exact (a long horizon's share of the
      // tolerance per unit time can be smaller than that).
      if (error <= std::max(tolerance_rate * step, kRounding * magnitude)) break;
      if (tries == 200 || !(step > 1e-300))
        throw std::runtime_error("the Krylov steps of the transient shrank to nothing");
      // A projection of a stiff chain can have Ritz values with positive real parts: over a step
      // too long its exponential overflows, and the error with it.
      step *= std::isfinite(error)
                  ? std::clamp(0.9 * std::pow(tolerance_rate * step / error, 1.0 / k), 1e-3, 0.9)
                  : 0.1;
      ++summary.rejected;
    }
    const bool to_end = step >= remaining;
    const double end = to_end ? horizon : now + step;
    Eigen::VectorXd at_time(n), area_at_time(n);
    for (; next < times.size() && times[next] <= end; ++next) {
      const Projected at = project(hessenberg, times[next] - now, beta);
      combine(basis, at.at, nullptr, at_time, threads);
      combine(basis, at.area, &area, area_at_time, threads);
      reached(next, at_time, area_at_time);
    }
    if (options.on_step)
      options.on_step({.start = now,
                       .length = end - now,
                       .beta = beta,
                       .hessenberg = hessenberg,
                       .basis = basis});
    combine(basis, over_step.at, nullptr, x, threads);
    combine(basis, over_step.area, &area, area_at_time, threads);
    area.swap(area_at_time);
    now = end;
    ++summary.steps;
    summary.error_estimate += error;
    // The next step as long as the estimate allows (it grows as tau^k), at most ten times this one.
    step = error > 0 ? step * std::min(10.0, 0.9 * std::pow(tolerance_rate * step / error, 1.0 / k))
                     : horizon;
  }
  return summary;
}

}  // namespace crawlq::analytic
