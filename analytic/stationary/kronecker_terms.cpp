#include "analytic/stationary/kronecker_terms.hpp"

#include <unsupported/Eigen/KroneckerProduct>
#include <vector>

namespace crawlq::analytic {

Sparse to_sparse(const Eigen::MatrixXd& dense) { return dense.sparseView(0.0, 0.0); }

Sparse identity(Eigen::Index n) {
  Sparse i(n, n);
  i.setIdentity();
  return i;
}

Sparse kron(const Sparse& a, const Sparse& b) {
  Sparse result;
  result = Eigen::kroneckerProduct(a, b);
  return result;
}

Eigen::Index power(int base, int exponent) {
  if (base == 1)
    return 1;  // one clock phase: a long buffer, where a loop to K a level would cost K^2
  Eigen::Index p = 1;
  for (int i = 0; i < exponent; ++i) p *= base;
  return p;
}

KroneckerTerms::KroneckerTerms(const model::PhaseType& service,
                               const model::PhaseType* obsolescence) {
  s_ = to_sparse(service.subgenerator());
  s0_ = to_sparse(service.exit_rates());
  beta_ = to_sparse(service.initial());
  s0_beta_ = to_sparse(service.exit_rates() * service.initial());
  if (obsolescence) {
    gamma_ = to_sparse(obsolescence->initial());
    big_gamma_ = to_sparse(obsolescence->subgenerator());
    gamma0_ = to_sparse(obsolescence->exit_rates());
  } else {
    gamma_ = to_sparse(Eigen::MatrixXd::Ones(1, 1));
    big_gamma_ = Sparse(1, 1);
    gamma0_ = Sparse(1, 1);
  }
  e_r_ = to_sparse(Eigen::MatrixXd::Ones(gamma_.cols(), 1));
}

std::vector<Sparse> KroneckerTerms::gamma_powers(int most) const {
  std::vector<Sparse> powers{to_sparse(Eigen::MatrixXd::Ones(1, 1))};
  for (int l = 1; l <= most; ++l) powers.push_back(kron(powers.back(), gamma_));
  return powers;
}

// Both sums are written entry by entry (clock k of the state's n is the digit of weight R^(n-1-k)):
// adding n Kronecker products one at a time re-copies the growing sum n times, which at K = 20 cost
// more than solving the chain.
Sparse KroneckerTerms::clock_sum(int n) const {
  const int r = clock_phases();
  if (r == 1)
    return Sparse(
        to_sparse(Eigen::MatrixXd::Constant(1, 1, n * Eigen::MatrixXd(big_gamma_)(0, 0))));
  const Eigen::Index states = power(r, n);
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(states) * (1 + n * (r - 1)));
  const Eigen::MatrixXd gamma(big_gamma_);
  for (Eigen::Index state = 0; state < states; ++state) {
    double diagonal = 0;
    Eigen::Index weight = states / r;
    for (int k = 0; k < n; ++k, weight /= r) {
      const int phase = static_cast<int>(state / weight % r);
      diagonal += gamma(phase, phase);
      for (int to = 0; to < r; ++to)
        if (to != phase && gamma(phase, to) != 0)
          entries.emplace_back(state, state + (to - phase) * weight, gamma(phase, to));
    }
    if (diagonal != 0) entries.emplace_back(state, state, diagonal);
  }
  Sparse sum(states, states);
  sum.setFromTriplets(entries.begin(), entries.end());
  return sum;
}

Sparse KroneckerTerms::expiry_sum(int n) const {
  const int r = clock_phases();
  // One phase: the n clocks are one state (a long buffer would cost K^2 digit by digit).
  if (r == 1) return to_sparse(Eigen::MatrixXd::Constant(1, 1, n * Eigen::VectorXd(gamma0_)(0)));
  const Eigen::Index states = power(r, n);
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(states) * n);
  const Eigen::VectorXd exit(gamma0_);
  for (Eigen::Index state = 0; state < states; ++state) {
    Eigen::Index weight = states / r;
    for (int k = 0; k < n; ++k, weight /= r) {
      const int phase = static_cast<int>(state / weight % r);
      if (exit(phase) == 0) continue;
      // Drop digit k: the clocks before it keep their places, those after it move up one.
      const Eigen::Index before = state / (weight * r), after = state % weight;
      entries.emplace_back(state, before * weight + after, exit(phase));
    }
  }
  Sparse sum(states, power(r, n - 1));
  sum.setFromTriplets(entries.begin(), entries.end());
  return sum;
}

Sparse KroneckerTerms::a(int n) const {
  const Eigen::Index clocks = power(clock_phases(), n);
  return kron(s_, identity(clocks)) + kron(identity(service_phases()), clock_sum(n));
}

Sparse KroneckerTerms::b(int n) const {
  return kron(kron(s0_beta_, e_r_), identity(power(clock_phases(), n - 1))) +
         kron(identity(service_phases()), expiry_sum(n));
}

Eigen::VectorXd KroneckerTerms::total_expiry_rate(int n) const {
  // One clock more adds its own rate to each combination of the others: no R^n x R^(n-1) matrix.
  const Eigen::VectorXd exit = Eigen::VectorXd(gamma0_);
  if (exit.size() == 1)
    return Eigen::VectorXd::Constant(1, n * exit(0));  // one phase: n clocks, one state
  Eigen::VectorXd total = Eigen::VectorXd::Zero(1);
  for (int k = 0; k < n; ++k) {
    Eigen::VectorXd longer(total.size() * exit.size());
    for (Eigen::Index c = 0; c < longer.size(); ++c)
      longer(c) = total(c / exit.size()) + exit(c % exit.size());
    total = std::move(longer);
  }
  return total;
}

}  // namespace crawlq::analytic
