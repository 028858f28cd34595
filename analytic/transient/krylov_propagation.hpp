#pragma once
// x(t) = exp(t A) x0 and its integral over [0, t] by projection on Krylov subspaces (Arnoldi), in
// time steps whose length a local error estimate chooses (Sidje's Expokit). Uniformisation takes
// about q t products, q the fastest state's outflow; a step here takes `dimension` products and,
// once the chain's slow part is all that is left to move, spans many multiples of 1 / q: the
// method for a stiff chain or a long horizon.
#include <Eigen/Core>
#include <atomic>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <vector>

namespace crawlq::analytic {

// y = A x on `threads` threads; A = Q transposed, so that x is a distribution as a column.
using VectorProduct =
    std::function<void(const Eigen::VectorXd& x, Eigen::VectorXd& y, int threads)>;

// A step taken: over it, x(start + s) = beta V exp(s H) e1 for s in [0, length], V the first
// H.rows() vectors of `basis`. What a caller keeps of it gives x, or parts of it, at any time of
// the step without another product (dense output).
struct KrylovStep {
  double start, length, beta;
  const Eigen::MatrixXd& hessenberg;
  const std::vector<Eigen::VectorXd>& basis;
};
using StepTaken = std::function<void(const KrylovStep&)>;

struct KrylovExponentialOptions {
  int dimension = 30;  // the subspace's, at most: its basis is dimension + 1 vectors of x's size
  // The l1 error allowed over the whole horizon: each step may use its share in proportion to its
  // length.
  double tolerance = 1e-12;
  // A bound on ||A||_1 (2 q for a generator whose fastest state leaves at rate q): below some
  // roundings of it, x A is noise and x has reached its fixed point (0: never judged so).
  double norm = 0;
  // Whether A keeps the sum of x (a generator's transpose, absorbing states or not): a step that
  // changes it is judged by that change too.
  bool conserves_sum = false;
  // The most threads of the products and the vector work: each product and the Gram-Schmidt
  // after it run on those that get a core (AdaptiveThreads), the same bits for any count.
  int threads = 1;
  const std::atomic<bool>* stop = nullptr;  // set from another thread: analytic::Cancelled
  std::size_t most_products = 0;            // > 0: KrylovWorkExceeded past this many
  // After each step; a step that is not taken (x already at its fixed point, or zero) is not
  // reported: x stays as it was from then on.
  StepTaken on_step;
};

// Thrown when KrylovExponentialOptions::most_products would be passed; `reached` is the time
// reached.
struct KrylovWorkExceeded : std::length_error {
  explicit KrylovWorkExceeded(double reached)
      : std::length_error("the Krylov steps need more products than allowed"), reached(reached) {}
  double reached;
};

struct KrylovExponentialSummary {
  std::size_t products = 0;
  int steps = 0, rejected = 0;  // rejected: steps shortened after their error estimate
  // The sum of the steps' bounds on their l1 error: each step's residual, integrated over the step
  // (exp(t Q) cannot enlarge an l1 norm, so the sum bounds the error at every time, up to the
  // quadrature of that integral and rounding).
  double error_estimate = 0;
};

// At each time of `times` (> 0, nondecreasing) `reached(i, x(times[i]), integral of x over
// [0, times[i]])`; x0 is `start`.
using ReachedTime =
    std::function<void(std::size_t i, const Eigen::VectorXd& at, const Eigen::VectorXd& area)>;
KrylovExponentialSummary krylov_propagate(const VectorProduct& product,
                                          const Eigen::VectorXd& start,
                                          const std::vector<double>& times,
                                          const KrylovExponentialOptions& options,
                                          const ReachedTime& reached);

// The largest subspace whose basis fits in `bytes` for vectors of `size` entries (0 if under 2).
int krylov_dimension_within(Eigen::Index size, double bytes);

}  // namespace crawlq::analytic
