#include "fit/regime_map_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "fit/time_scale.hpp"
#include "model/input_error.hpp"

namespace crawlq::fit {

namespace {

// Above this the regimes' own laws would need a variance below zero.
constexpr double kHighestHeight = 0.95;
constexpr int kMostPhasesPerRegime = 50;

}  // namespace

void phase_type_with(double mean, double scv, int most_phases, model::RowVector& alpha,
                     model::Matrix& t) {
  if (std::abs(scv - 1) < 1e-12 ||
      most_phases <= 1) {  // one phase: the exponential, whatever scv was asked
    alpha = model::RowVector::Ones(1);
    t = model::Matrix::Constant(1, 1, -1 / mean);
    return;
  }
  if (scv > 1) {
    const double root = std::sqrt((scv - 1) / (scv + 1)), q = 0.5 * (1 + root);
    // 1 - q as (1 - root^2) / (2 (1 + root)): 1 - q itself is 0 in a double past scv 10^16.
    const double rest = 1 / ((scv + 1) * (1 + root));
    alpha.resize(2);
    alpha << q, rest;
    t = model::Matrix::Zero(2, 2);
    t(0, 0) = -2 * q / mean;
    t(1, 1) = -2 * rest / mean;
    return;
  }
  // 1/k <= scv < 1/(k-1): Erlang(k-1) with probability q, Erlang(k) otherwise, one rate. The
  // phases are counted as a double first: 1/scv of a nearly constant time is past any int.
  const int k = static_cast<int>(
      std::min(static_cast<double>(most_phases), std::ceil(1 / std::max(scv, 1e-300) - 1e-12)));
  const double w = std::max(scv, 1.0 / k);
  const double q = (k * w - std::sqrt(k * (1 + w) - k * k * w)) / (1 + w);
  const double rate = (k - q) / mean;
  alpha = model::RowVector::Zero(k);
  alpha(0) = 1 - q;
  if (k > 1) alpha(1) += q;
  t = model::Matrix::Zero(k, k);
  for (int i = 0; i < k; ++i) {
    t(i, i) = -rate;
    if (i + 1 < k) t(i, i + 1) = rate;
  }
}

RegimeMapFit fit_regime_map(double mean, double variance, const std::vector<double>& lags,
                            const std::vector<double>& bands, int most_phases) {
  require_time_scale(mean, variance, "the times between batches");
  RegimeMapFit fit;
  if (variance == 0)
    fit.note = fmt::format("the times between batches are all {:.6g}: no MAP's are constant", mean);
  // The geometric decay: least squares of log |r_k| on k over the lags of the decay's sign
  // (positive; or (-1)^k for regimes that tend to alternate, rho < 0) outside their bands, lag 1
  // matched exactly.
  const double band1 = bands.empty() ? 0 : bands[0];
  const bool alternating = !lags.empty() && lags[0] < -band1;
  std::vector<std::pair<double, double>> points;
  for (std::size_t k = 0; k < lags.size(); ++k) {
    const double sign = alternating && k % 2 == 0 ? -1 : 1;
    if (sign * lags[k] > 0 && sign * lags[k] > (k < bands.size() ? bands[k] : 0))
      points.emplace_back(k + 1.0, std::log(sign * lags[k]));
  }
  double rho = 0, height = 0;
  if (!lags.empty() && !points.empty() && points.front().first == 1) {
    if (points.size() >= 2) {
      double mk = 0, ml = 0;
      for (const auto& [k, l] : points) {
        mk += k;
        ml += l;
      }
      mk /= points.size();
      ml /= points.size();
      double sxy = 0, sxx = 0;
      for (const auto& [k, l] : points) {
        sxy += (k - mk) * (l - ml);
        sxx += (k - mk) * (k - mk);
      }
      rho = std::exp(sxy / sxx);
    } else {
      rho = 0.5;  // lag 1 alone: the lags after it inside their bands
    }
    rho = std::clamp(rho, 0.01, 0.999) * (alternating ? -1 : 1);
    height = lags[0] / rho;
    if (height > kHighestHeight) {
      fit.note = fmt::format(
          "the lag correlations ask for A = {:.3g}; A = {} was fitted (the regimes' own times need "
          "some variance)",
          height, kHighestHeight);
      height = kHighestHeight;
    }
  }
  fit.correlation_height = height;
  fit.correlation_decay = rho;
  const double between = height * variance;  // Var(mu_J)
  const double m2 = mean * mean;
  fit.regime_scv = (1 - height) * variance / (m2 + between);
  // Phases a regime's law may take: half the order asked for (all of it for a renewal fit).
  const int per_regime = most_phases <= 0 ? kMostPhasesPerRegime
                                          : std::clamp(height == 0 ? most_phases : most_phases / 2,
                                                       1, kMostPhasesPerRegime);
  if (fit.regime_scv < 1.0 / per_regime)
    fit.note +=
        fmt::format("{}the regimes' times would need scv {:.3g}; {} phases give {:.3g}",
                    fit.note.empty() ? "" : "; ", fit.regime_scv, per_regime, 1.0 / per_regime);
  model::RowVector alpha;
  model::Matrix t;
  if (height == 0) {
    fit.regime_means = {mean};
    phase_type_with(mean, fit.regime_scv, per_regime, alpha, t);
    fit.d0 = t;
    fit.d1 = (-t * model::Vector::Ones(t.rows())) * alpha;
    return fit;
  }
  // mu_2 > 0 needs p < m^2 / (m^2 + Var(mu_J)): half of that bound, at most 1/2.
  double p = std::min(0.5, 0.5 * m2 / (m2 + between));
  // Regimes that alternate keep the rarer one with probability (1 - rho) p + rho >= 0: p as large
  // as that needs, within 0.95 of mu_2's bound.
  if (rho < 0) p = std::max(p, std::min(-rho / (1 - rho), 0.95 * m2 / (m2 + between)));
  fit.regime_share = p;
  if (rho < -p / (1 - p) * (1 + 1e-12)) {
    rho = -p / (1 - p);
    fit.correlation_decay = rho;
    fit.note += fmt::format(
        "{}the lag-1 correlation {:.3g} asks the regimes to alternate more often than these "
        "times allow; {:.3g} was fitted",
        fit.note.empty() ? "" : "; ", lags[0], height * rho);
  }
  fit.regime_means = {mean + std::sqrt(between * (1 - p) / p),
                      mean - std::sqrt(between * p / (1 - p))};
  std::vector<model::RowVector> alphas(2);
  std::vector<model::Matrix> ts(2);
  for (int j = 0; j < 2; ++j)
    phase_type_with(fit.regime_means[j], fit.regime_scv, per_regime, alphas[j], ts[j]);
  const Eigen::Index n = ts[0].rows(), m = ts[1].rows();
  fit.d0 = model::Matrix::Zero(n + m, n + m);
  fit.d0.topLeftCorner(n, n) = ts[0];
  fit.d0.bottomRightCorner(m, m) = ts[1];
  const double share[2] = {p, 1 - p};
  fit.d1 = model::Matrix::Zero(n + m, n + m);
  const Eigen::Index offset[2] = {0, n}, size[2] = {n, m};
  for (int from = 0; from < 2; ++from) {
    const model::Vector exits = -ts[from] * model::Vector::Ones(size[from]);
    for (int to = 0; to < 2; ++to) {
      // At rho's bound the rarer regime's stay is 0 up to rounding.
      const double next = std::max(0.0, (1 - rho) * share[to] + (from == to ? rho : 0.0));
      fit.d1.block(offset[from], offset[to], size[from], size[to]) = next * exits * alphas[to];
    }
  }
  return fit;
}

}  // namespace crawlq::fit
