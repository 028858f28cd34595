#include "fit/hyperexponential_em.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "fit/em_iterations.hpp"
#include "fit/time_scale.hpp"
#include "model/input_error.hpp"

namespace crawlq::fit {

namespace {

constexpr double kMixtureRelativeGain = 1e-10;

// log sum_i p_i lambda_i e^{-lambda_i x} and the responsibilities w_i, stably (the largest term
// out).
double responsibilities(const std::vector<double>& p, const std::vector<double>& rate, double x,
                        std::vector<double>& w) {
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < p.size(); ++i) {
    w[i] = p[i] > 0 ? std::log(p[i]) + std::log(rate[i]) - rate[i] * x
                    : -std::numeric_limits<double>::infinity();
    top = std::max(top, w[i]);
  }
  double sum = 0;
  for (double& v : w) sum += (v = std::exp(v - top));
  for (double& v : w) v /= sum;
  return top + std::log(sum);
}

}  // namespace

EmFit fit_hyperexponential_em(const std::vector<double>& sample, int phases, int most_iterations) {
  if (phases < 1 || phases > 20)
    throw model::InputError(fmt::format("--phases {}: give 1 to 20", phases));
  if (sample.size() < 2) throw model::InputError("a sample of at least two times");
  double mean = 0, second = 0;
  for (const double x : sample) {
    mean += x / static_cast<double>(sample.size());
    second += x * x / static_cast<double>(sample.size());
  }
  require_time_scale(mean, second, "the sample");
  // Start: rates spread by factors of 4 around 1/mean, equal weights (a symmetric start would stay
  // symmetric).
  std::vector<double> p(static_cast<std::size_t>(phases), 1.0 / phases),
      rate(static_cast<std::size_t>(phases));
  for (int i = 0; i < phases; ++i)
    rate[static_cast<std::size_t>(i)] = std::pow(4.0, i - 0.5 * (phases - 1)) / mean;
  EmFit fit;
  std::vector<double> w(static_cast<std::size_t>(phases)), weight(w.size()),
      weighted_time(w.size());
  const auto e_step = [&] {
    std::fill(weight.begin(), weight.end(), 0.0);
    std::fill(weighted_time.begin(), weighted_time.end(), 0.0);
    double log_likelihood = 0;
    for (const double x : sample) {
      log_likelihood += responsibilities(p, rate, x, w);
      for (std::size_t i = 0; i < w.size(); ++i) {
        weight[i] += w[i];
        weighted_time[i] += w[i] * x;
      }
    }
    return log_likelihood;
  };
  const auto m_step = [&] {
    for (std::size_t i = 0; i < w.size(); ++i) {
      p[i] = weight[i] / static_cast<double>(sample.size());
      if (weighted_time[i] > 0) rate[i] = weight[i] / weighted_time[i];
    }
  };
  const EmTrace trace = iterate_em(e_step, m_step, most_iterations, kMixtureRelativeGain);
  fit.log_likelihoods = trace.log_likelihoods;
  fit.converged = trace.converged;
  // Phases from the slowest, as the paper writes its fit; weights that vanished are kept as 0.
  std::vector<std::size_t> order(w.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return rate[a] < rate[b]; });
  fit.beta = model::RowVector(phases);
  fit.s = model::Matrix::Zero(phases, phases);
  for (int i = 0; i < phases; ++i) {
    fit.beta(i) = p[order[static_cast<std::size_t>(i)]];
    fit.s(i, i) = -rate[order[static_cast<std::size_t>(i)]];
  }
  return fit;
}

}  // namespace crawlq::fit
