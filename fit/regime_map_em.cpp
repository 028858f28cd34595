#include "fit/regime_map_em.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "fit/em_iterations.hpp"

namespace crawlq::fit {

namespace {

constexpr double kRegimeRelativeGain = 1e-9;

// log of the Erlang(shape, rate) density at x.
double log_erlang(int shape, double rate, double x) {
  return shape * std::log(rate) + (shape - 1) * std::log(x) - rate * x - std::lgamma(shape);
}

// One run's forward pass, scaled: the emission densities `f` (each step's largest factored out
// against underflow), the filtered laws `alpha` and their scales; returns the run's log-likelihood.
double forward(const std::vector<double>& run, int shape, const std::vector<double>& rate,
               const model::RowVector& start, const model::Matrix& transitions, model::Matrix& f,
               model::Matrix& alpha, std::vector<double>& scale) {
  const std::size_t length = run.size();
  const auto n = static_cast<Eigen::Index>(rate.size());
  f.resize(static_cast<Eigen::Index>(length), n);
  alpha.resize(static_cast<Eigen::Index>(length), n);
  scale.assign(length, 0.0);
  double log_likelihood = 0;
  for (std::size_t t = 0; t < length; ++t) {
    double top = -std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < n; ++j)
      top = std::max(top, f(t, j) = log_erlang(shape, rate[j], run[t]));
    for (Eigen::Index j = 0; j < n; ++j) f(t, j) = std::exp(f(t, j) - top);
    const model::RowVector prior =
        t == 0 ? start : model::RowVector(alpha.row(t - 1) * transitions);
    alpha.row(t) = prior.cwiseProduct(f.row(t));
    scale[t] = alpha.row(t).sum();
    alpha.row(t) /= scale[t];
    log_likelihood += std::log(scale[t]) + top;
  }
  return log_likelihood;
}

}  // namespace

double regime_map_log_likelihood(const std::vector<std::vector<double>>& runs, int shape,
                                 const std::vector<double>& means, const model::RowVector& start,
                                 const model::Matrix& transitions) {
  std::vector<double> rate;
  for (const double m : means) rate.push_back(shape / m);
  model::Matrix f, alpha;
  std::vector<double> scale;
  double log_likelihood = 0;
  for (const auto& run : runs)
    log_likelihood += forward(run, shape, rate, start, transitions, f, alpha, scale);
  return log_likelihood;
}

RegimeMapEm fit_regime_map_em(const std::vector<std::vector<double>>& runs, int shape,
                              std::vector<double> means, model::Matrix transitions,
                              int most_iterations) {
  const int n = static_cast<int>(means.size());
  std::vector<double> rate(means.size());
  for (int j = 0; j < n; ++j) rate[j] = shape / means[j];
  model::RowVector start = model::RowVector::Constant(n, 1.0 / n);
  RegimeMapEm fit;
  fit.shape = shape;
  model::Matrix expected_moves(n, n);
  model::RowVector expected_start(n);
  std::vector<double> weight(n), weighted_time(n);
  // The E step: forward-backward over each run, scaled, for the expected starts, moves between
  // regimes, and time spent in each.
  const auto e_step = [&] {
    expected_moves.setZero();
    expected_start.setZero();
    std::fill(weight.begin(), weight.end(), 0.0);
    std::fill(weighted_time.begin(), weighted_time.end(), 0.0);
    double log_likelihood = 0;
    model::Matrix f, alpha;
    std::vector<double> scale;
    for (const auto& run : runs) {
      const std::size_t length = run.size();
      if (length == 0) continue;
      log_likelihood += forward(run, shape, rate, start, transitions, f, alpha, scale);
      model::Matrix beta(static_cast<Eigen::Index>(length), n);
      beta.row(length - 1).setOnes();
      for (std::size_t t = length - 1; t-- > 0;)
        beta.row(t) =
            (transitions * f.row(t + 1).cwiseProduct(beta.row(t + 1)).transpose()).transpose() /
            scale[t + 1];
      for (std::size_t t = 0; t < length; ++t) {
        const model::RowVector gamma = alpha.row(t).cwiseProduct(beta.row(t));
        if (t == 0) expected_start += gamma;
        for (int j = 0; j < n; ++j) {
          weight[j] += gamma(j);
          weighted_time[j] += gamma(j) * run[t];
        }
        if (t + 1 < length)
          expected_moves += (alpha.row(t).transpose() * f.row(t + 1).cwiseProduct(beta.row(t + 1)))
                                .cwiseProduct(transitions) /
                            scale[t + 1];
      }
    }
    return log_likelihood;
  };
  const auto m_step = [&] {
    start = expected_start / expected_start.sum();
    for (int i = 0; i < n; ++i) {
      const double total = expected_moves.row(i).sum();
      if (total > 0) transitions.row(i) = expected_moves.row(i) / total;
      if (weighted_time[i] > 0) rate[i] = shape * weight[i] / weighted_time[i];
    }
  };
  // The parameters as one vector for SQUAREM's jumps: the first regime's law, P row by row, and
  // the log of each rate (so that a jump keeps rates > 0; the jumps are affine, so rows keep
  // summing to 1).
  const auto pack = [&] {
    Eigen::VectorXd x(n + n * n + n);
    for (int i = 0; i < n; ++i) {
      x(i) = start(i);
      for (int j = 0; j < n; ++j) x(n + i * n + j) = transitions(i, j);
      x(n + n * n + i) = std::log(rate[i]);
    }
    return x;
  };
  const auto unpack = [&](const Eigen::VectorXd& x) {
    for (int i = 0; i < n; ++i) {
      start(i) = x(i);
      for (int j = 0; j < n; ++j) transitions(i, j) = x(n + i * n + j);
      rate[i] = std::exp(x(n + n * n + i));
    }
  };
  const auto em_map = [&](const Eigen::VectorXd& x) {
    unpack(x);
    const double log_likelihood = e_step();
    m_step();
    return std::make_pair(pack(), log_likelihood);
  };
  const auto valid = [&](const Eigen::VectorXd& x) {
    const auto probabilities = x.head(n + n * n).array();
    return (probabilities >= 0).all() && (probabilities <= 1).all() && x.allFinite();
  };
  Eigen::VectorXd parameters = pack();
  const EmTrace trace =
      iterate_squarem(parameters, em_map, valid, most_iterations, kRegimeRelativeGain);
  unpack(parameters);
  fit.log_likelihoods = trace.log_likelihoods;
  fit.converged = trace.converged;
  // The MAP: regime j an Erlang chain of `shape` phases at rate[j]; its end starts regime k's chain
  // with P_jk.
  const int phases = n * shape;
  fit.d0 = model::Matrix::Zero(phases, phases);
  fit.d1 = model::Matrix::Zero(phases, phases);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < shape; ++i) {
      fit.d0(j * shape + i, j * shape + i) = -rate[j];
      if (i + 1 < shape) fit.d0(j * shape + i, j * shape + i + 1) = rate[j];
    }
    for (int k = 0; k < n; ++k)
      fit.d1(j * shape + shape - 1, k * shape) = rate[j] * transitions(j, k);
    fit.means.push_back(shape / rate[j]);
  }
  fit.transitions = transitions;
  fit.start = start;
  return fit;
}

}  // namespace crawlq::fit
