#pragma once
// The sparse Kronecker pieces of the Lemma (section 3): gamma^{(x)l}, Gamma^{(+)n}, Gamma_0^{(+)n},
// A_n = S (+) Gamma^{(+)n} and B_n, shared by the generator blocks and the tagged-page chain.
#include <Eigen/SparseCore>
#include <vector>

#include "model/phase_type.hpp"

namespace crawlq::analytic {

using Sparse = Eigen::SparseMatrix<double>;

Sparse to_sparse(const Eigen::MatrixXd& dense);
Sparse identity(Eigen::Index n);
Sparse kron(const Sparse& a, const Sparse& b);
// base^exponent: the clock combinations of `exponent` pages with `base` phases each.
Eigen::Index power(int base, int exponent);

// The small matrices of one model, with the obsolescence clock of a page that never expires taken
// as one phase with no exit (Gamma = 0, gamma = 1).
class KroneckerTerms {
 public:
  KroneckerTerms(const model::PhaseType& service, const model::PhaseType* obsolescence);

  int service_phases() const { return static_cast<int>(s_.rows()); }
  int clock_phases() const { return static_cast<int>(gamma_.cols()); }

  const Sparse& s() const { return s_; }
  const Sparse& s0() const { return s0_; }      // M x 1
  const Sparse& beta() const { return beta_; }  // 1 x M
  // gamma^{(x)l} for l = 0..most (1 x R^l; l = 0 gives [1]), one Kronecker factor at a time: each
  // from scratch would cost a long buffer K^2.
  std::vector<Sparse> gamma_powers(int most) const;
  // Gamma^{(+)n}: R^n x R^n, the clocks of n waiting pages changing phase.
  Sparse clock_sum(int n) const;
  // Gamma_0^{(+)n}: R^n x R^{n-1}, one of n waiting pages expiring (the others keep their order).
  Sparse expiry_sum(int n) const;
  // A_n = S (+) Gamma^{(+)n}: the server and n clocks, no page leaving.
  Sparse a(int n) const;
  // B_n = S_0 beta (x) e_R (x) I_{R^{n-1}} + I_M (x) Gamma_0^{(+)n}: one of n waiting pages leaves
  // (the head enters service, or any page expires).
  Sparse b(int n) const;
  // Sum over the n clocks of their expiry rates: R^n x 1.
  Eigen::VectorXd total_expiry_rate(int n) const;

 private:
  Sparse s_, s0_, s0_beta_, beta_, gamma_, big_gamma_, gamma0_, e_r_;
};

}  // namespace crawlq::analytic
