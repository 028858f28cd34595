#include "fit/regime_map_standard_errors.hpp"

#include <Eigen/Dense>
#include <cmath>

namespace crawlq::fit {

namespace {

constexpr double kBoundary = 1e-9;
// The central differences' step in the free parameters (log rates and logits, all of order 1).
constexpr double kStep = 1e-4;

// The free parameters: each regime's log rate, then each interior row's logits of its first n - 1
// entries against its last.
struct Parametrisation {
  int shape = 1;
  std::vector<int> free_rows;  // rows of P away from the boundary
  int regimes = 0;

  Eigen::Index size() const {
    return regimes + static_cast<Eigen::Index>(free_rows.size()) * (regimes - 1);
  }
  Eigen::VectorXd of(const RegimeMapEm& fit) const {
    Eigen::VectorXd x(size());
    for (int j = 0; j < regimes; ++j) x(j) = std::log(shape / fit.means[j]);
    Eigen::Index k = regimes;
    for (const int i : free_rows)
      for (int j = 0; j + 1 < regimes; ++j)
        x(k++) = std::log(fit.transitions(i, j) / fit.transitions(i, regimes - 1));
    return x;
  }
  // The means and P of `x` (rows on the boundary as `fit` has them).
  void set(const Eigen::VectorXd& x, const RegimeMapEm& fit, std::vector<double>& means,
           model::Matrix& transitions) const {
    means.resize(static_cast<std::size_t>(regimes));
    for (int j = 0; j < regimes; ++j) means[static_cast<std::size_t>(j)] = shape / std::exp(x(j));
    transitions = fit.transitions;
    Eigen::Index k = regimes;
    for (const int i : free_rows) {
      double total = 1;
      for (int j = 0; j + 1 < regimes; ++j) total += std::exp(x(k + j));
      for (int j = 0; j + 1 < regimes; ++j) transitions(i, j) = std::exp(x(k + j)) / total;
      transitions(i, regimes - 1) = 1 / total;
      k += regimes - 1;
    }
  }
};

}  // namespace

RegimeMapStandardErrors regime_map_standard_errors(const std::vector<std::vector<double>>& runs,
                                                   const RegimeMapEm& fit) {
  Parametrisation p{
      .shape = fit.shape, .free_rows = {}, .regimes = static_cast<int>(fit.means.size())};
  for (int i = 0; i < p.regimes; ++i)
    if (p.regimes > 1 && fit.transitions.row(i).minCoeff() > kBoundary) p.free_rows.push_back(i);
  const Eigen::VectorXd top = p.of(fit);
  const Eigen::Index m = top.size();
  std::vector<double> means;
  model::Matrix transitions;
  const auto log_likelihood = [&](const Eigen::VectorXd& x) {
    p.set(x, fit, means, transitions);
    return regime_map_log_likelihood(runs, fit.shape, means, fit.start, transitions);
  };
  // The Hessian by central differences: the diagonal from three points, each pair from four.
  Eigen::MatrixXd hessian(m, m);
  const double centre = log_likelihood(top);
  for (Eigen::Index a = 0; a < m; ++a) {
    Eigen::VectorXd x = top;
    x(a) = top(a) + kStep;
    const double up = log_likelihood(x);
    x(a) = top(a) - kStep;
    const double down = log_likelihood(x);
    hessian(a, a) = (up - 2 * centre + down) / (kStep * kStep);
    for (Eigen::Index b = 0; b < a; ++b) {
      double corners = 0;
      for (const double sa : {1.0, -1.0})
        for (const double sb : {1.0, -1.0}) {
          Eigen::VectorXd y = top;
          y(a) += sa * kStep;
          y(b) += sb * kStep;
          corners += sa * sb * log_likelihood(y);
        }
      hessian(a, b) = hessian(b, a) = corners / (4 * kStep * kStep);
    }
  }
  RegimeMapStandardErrors errors;
  const Eigen::LLT<Eigen::MatrixXd> information(-hessian);
  if (information.info() != Eigen::Success) {
    errors.absent =
        "the likelihood is flat in some direction at the fit (its curvature is not negative "
        "definite): regimes the log cannot tell apart";
    return errors;
  }
  const Eigen::MatrixXd covariance = information.solve(Eigen::MatrixXd::Identity(m, m));
  // mean_j = shape exp(-x_j): its error is mean_j times that of x_j.
  for (int j = 0; j < p.regimes; ++j)
    errors.means.push_back(fit.means[static_cast<std::size_t>(j)] * std::sqrt(covariance(j, j)));
  if (static_cast<int>(p.free_rows.size()) == p.regimes && p.regimes > 1) {
    // P_ij = softmax of row i's logits (the last one 0): dP_ij/dx_ik = P_ij (delta_jk - P_ik).
    model::Matrix spread = model::Matrix::Zero(p.regimes, p.regimes);
    Eigen::Index k = p.regimes;
    for (const int i : p.free_rows) {
      Eigen::MatrixXd gradient(p.regimes, p.regimes - 1);
      for (int j = 0; j < p.regimes; ++j)
        for (int l = 0; l + 1 < p.regimes; ++l)
          gradient(j, l) = fit.transitions(i, j) * ((j == l ? 1.0 : 0.0) - fit.transitions(i, l));
      const Eigen::MatrixXd block = covariance.block(k, k, p.regimes - 1, p.regimes - 1);
      const Eigen::VectorXd variances = (gradient * block * gradient.transpose()).diagonal();
      for (int j = 0; j < p.regimes; ++j) spread(i, j) = std::sqrt(std::max(0.0, variances(j)));
      k += p.regimes - 1;
    }
    errors.transitions = spread;
  }
  return errors;
}

}  // namespace crawlq::fit
