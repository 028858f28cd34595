#include "analytic/refresh_optimization.hpp"

#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace crawlq::analytic {

namespace {

const boost::math::tools::eps_tolerance<double> kTolerance(50);

// phi(u) = 1 - (1 + u) e^{-u}: (8)'s 1 - y + y ln y at y = e^{-u}. Below u = 0.1 its series, whose
// terms do not cancel: sum_{n >= 2} (-1)^n (n - 1) u^n / n!.
double one_minus_y_plus_y_log_y(double u) {
  if (u >= 0.1) return -std::expm1(-u) - u * std::exp(-u);
  double term = u, sum = 0;  // term = u^n / n!
  for (int n = 2; n < 25; ++n) {
    term *= u / n;
    sum += ((n % 2 == 0) ? 1 : -1) * (n - 1) * term;
  }
  return sum;
}

// Bracket-and-solve for a decreasing function on (low, high) by TOMS 748 (Boost.Math).
template <class F>
double solve_decreasing(F f, double low, double high) {
  std::uintmax_t iterations = 200;
  const auto [a, b] = boost::math::tools::toms748_solve(f, low, high, kTolerance, iterations);
  return 0.5 * (a + b);
}

// x_i(lambda) of (8): 0 where lambda >= c_i / (mu_i E[X]); otherwise -ln h_i / u with phi(u) equal to
// lambda mu_i E[X] / c_i.
double bound_frequency(double lambda, double c, double mu, double h, double mean) {
  const double target = lambda * mu * mean / c;
  if (target >= 1.0) return 0.0;
  double high = 1.0;
  while (one_minus_y_plus_y_log_y(high) < target) high *= 2;
  const double u = solve_decreasing([&](double v) { return target - one_minus_y_plus_y_log_y(v); }, 0.0, high);
  return -std::log(h) / u;
}

double sum_of(const std::vector<double>& x) { return std::accumulate(x.begin(), x.end(), 0.0); }

}  // namespace

double bound_objective(const model::RefreshModel& model, const std::vector<double>& h, const std::vector<double>& x) {
  const double mean = model.access_time.mean();
  double cost = 0;
  for (int i = 0; i < model.pages(); ++i) {
    const double stale_share =
        x[i] > 0 ? x[i] * -std::expm1(std::log(h[i]) / x[i]) / (model.change_rates[i] * mean) : 0.0;
    cost += model.weights[i] * (1.0 - stale_share);
  }
  return cost;
}

RefreshOptimum refresh_lower_bound_by_search(const model::RefreshModel& model, const std::vector<double>& h) {
  const double mean = model.access_time.mean();
  double highest = 0;  // above max c_i / (mu_i E[X]) every page has frequency 0
  for (int i = 0; i < model.pages(); ++i) highest = std::max(highest, model.weights[i] / (model.change_rates[i] * mean));
  const auto frequencies_at = [&](double lambda) {
    std::vector<double> x(model.pages());
    for (int i = 0; i < model.pages(); ++i)
      x[i] = bound_frequency(lambda, model.weights[i], model.change_rates[i], h[i], mean);
    return x;
  };
  // sum x_i(lambda) falls from infinity to 0 as lambda rises to `highest`: search in log lambda.
  double low = std::log(highest) - 1;
  while (sum_of(frequencies_at(std::exp(low))) < 1) low -= 4;
  const double log_lambda =
      solve_decreasing([&](double l) { return sum_of(frequencies_at(std::exp(l))) - 1.0; }, low, std::log(highest));
  RefreshOptimum o;
  o.multiplier = std::exp(log_lambda);
  o.frequencies = frequencies_at(o.multiplier);
  const double total = sum_of(o.frequencies);
  for (double& f : o.frequencies) f /= total;  // the root's last bits
  o.cost = bound_objective(model, h, o.frequencies);
  return o;
}

RefreshOptimum refresh_lower_bound(const model::RefreshModel& model, const std::vector<double>& h) {
  if (!model.weights_proportional_to_rates()) return refresh_lower_bound_by_search(model, h);
  // (10) and (6).
  const double mean = model.access_time.mean();
  const double c0 = model.weights[0] / model.change_rates[0];
  double log_sum = 0, mu = 0;
  for (int i = 0; i < model.pages(); ++i) {
    log_sum += std::log(h[i]);
    mu += model.change_rates[i];
  }
  RefreshOptimum o;
  o.closed_form = true;
  for (int i = 0; i < model.pages(); ++i) o.frequencies.push_back(std::log(h[i]) / log_sum);
  o.cost = c0 * (mu - 1.0 / mean + std::exp(log_sum) / mean);
  // (8) with every h_i^{1/x_i} = exp(log_sum): lambda = c_0 phi(-log_sum) / E[X].
  o.multiplier = c0 * one_minus_y_plus_y_log_y(-log_sum) / mean;
  return o;
}

double randomized_objective(const model::RefreshModel& model, const std::vector<double>& h, const std::vector<double>& x) {
  const double mean = model.access_time.mean();
  double cost = 0;
  for (int i = 0; i < model.pages(); ++i) {
    const double scaled = model.weights[i] / (model.change_rates[i] * mean);
    cost += model.weights[i] - scaled * x[i] + scaled * x[i] * x[i] * h[i] / (1.0 - h[i] + x[i] * h[i]);
  }
  return cost;
}

RandomizedOptimum optimal_randomized_frequencies(const model::RefreshModel& model, const std::vector<double>& h) {
  const double mean = model.access_time.mean();
  const int n = model.pages();
  std::vector<double> root(n), odds(n);  // sqrt(c_i / mu_i) and 1/h_i - 1
  double weighted = 0, total_odds = 0;
  for (int i = 0; i < n; ++i) {
    root[i] = std::sqrt(model.weights[i] / model.change_rates[i]);
    odds[i] = (1.0 - h[i]) / h[i];
    weighted += root[i] * odds[i];
    total_odds += odds[i];
  }
  RandomizedOptimum o;
  const double threshold = weighted / (1.0 + total_odds);
  o.validity_condition_holds = *std::min_element(root.begin(), root.end()) >= threshold;
  // (15) at a given lambda, clipped at 0 (the KKT condition of a page read with frequency 0).
  const auto frequencies_at = [&](double lambda) {
    std::vector<double> x(n);
    for (int i = 0; i < n; ++i) x[i] = std::max(0.0, (root[i] / std::sqrt(lambda * mean) - 1.0) * odds[i]);
    return x;
  };
  if (model.weights_proportional_to_rates()) {
    o.closed_form = true;  // (16)
    for (int i = 0; i < n; ++i) o.frequencies.push_back(odds[i] / total_odds);
    o.multiplier = threshold * threshold / mean;
  } else if (o.validity_condition_holds) {
    o.multiplier = threshold * threshold / mean;  // sqrt(lambda) after (16)
    o.frequencies = frequencies_at(o.multiplier);
  } else {
    // Sum x_i(lambda) falls as lambda rises: bracket between 0+ and where every x_i is 0.
    const double highest = std::pow(*std::max_element(root.begin(), root.end()), 2) / mean;
    double low = std::log(highest) - 1;
    while (sum_of(frequencies_at(std::exp(low))) < 1) low -= 4;
    o.multiplier = std::exp(
        solve_decreasing([&](double l) { return sum_of(frequencies_at(std::exp(l))) - 1.0; }, low, std::log(highest)));
    o.frequencies = frequencies_at(o.multiplier);
  }
  const double total = sum_of(o.frequencies);
  for (double& f : o.frequencies) f /= total;
  o.cost = randomized_objective(model, h, o.frequencies);
  return o;
}

double two_phi_squared_over_five() {
  const double phi = (1.0 + std::sqrt(5.0)) / 2.0;
  return 2.0 * phi * phi / 5.0;
}

double golden_ratio_limit_ratio(double q) {
  const double phi = (1.0 + std::sqrt(5.0)) / 2.0, root5 = std::sqrt(5.0);
  const double numerator =
      q - 1.0 + (1.0 - 1.0 / phi) * std::exp(-phi * q / root5) + std::exp(-phi * phi * q / root5) / phi;
  return numerator / (q - 1.0 + std::exp(-q));
}

}  // namespace crawlq::analytic
