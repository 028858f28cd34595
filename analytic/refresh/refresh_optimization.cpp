#include "analytic/refresh/refresh_optimization.hpp"

#include <algorithm>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "analytic/refresh/refresh_rates.hpp"

namespace crawlq::analytic {

namespace {

const boost::math::tools::eps_tolerance<double> kTolerance(50);
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// phi(u) = 1 - (1 + u) e^{-u}: CLW (8)'s 1 - y + y ln y at y = e^{-u}. Below u = 0.1 its series,
// whose terms do not cancel: sum_{n >= 2} (-1)^n (n - 1) u^n / n!.
double one_minus_y_plus_y_log_y(double u) {
  if (u == kInfinity) return 1.0;
  if (u >= 0.1) return -std::expm1(-u) - u * std::exp(-u);
  double term = u, sum = 0;  // term = u^n / n!
  for (int n = 2; n < 25; ++n) {
    term *= u / n;
    sum += ((n % 2 == 0) ? 1 : -1) * (n - 1) * term;
  }
  return sum;
}

// ln(e^y - 1) for y > 0, also where e^y overflows or y underflows 1 + y.
double log_expm1(double y) {
  return y > 1 ? y + std::log1p(-std::exp(-y)) : std::log(std::expm1(y));
}

double log_sum_exp(const std::vector<double>& a) {
  const double top = *std::max_element(a.begin(), a.end());
  if (!std::isfinite(top)) return top;
  double sum = 0;
  for (double v : a) sum += std::exp(v - top);
  return top + std::log(sum);
}

// e^{a_i} / sum_j e^{a_j} over the i with `chosen[i]`, 0 elsewhere.
std::vector<double> normalized_exponentials(const std::vector<double>& a,
                                            const std::vector<bool>& chosen) {
  double top = -kInfinity;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (chosen[i]) top = std::max(top, a[i]);
  std::vector<double> x(a.size(), 0.0);
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (chosen[i]) sum += x[i] = std::exp(a[i] - top);
  for (double& v : x) v /= sum;
  return x;
}

double sum_of(const std::vector<double>& x) { return std::accumulate(x.begin(), x.end(), 0.0); }

// u with phi(u) = t for 0 < t < 1. u^2 / 6 <= phi(u) <= u^2 / 2 for u <= 1 brackets u within a
// factor 3.5, so the relative tolerance holds however small u is; below t = 1e-40, u = sqrt(2t) to
// 17 digits.
double inverse_phi(double log_t) {
  const double t = std::exp(log_t);
  if (log_t < -92) return std::sqrt(2.0) * std::exp(0.5 * log_t);
  double low = 0.5 * std::sqrt(2 * t), high = std::sqrt(6 * t);
  if (high > 1) {
    high = 1;
    while (one_minus_y_plus_y_log_y(high) < t) high *= 2;  // phi rounds to 1 from u ~ 40 on
  }
  std::uintmax_t iterations = 200;
  const auto [a, b] = boost::math::tools::toms748_solve(
      [t](double u) { return one_minus_y_plus_y_log_y(u) - t; }, low, high, kTolerance, iterations);
  return 0.5 * (a + b);
}

// A level at which sum x(level) >= 1, below `high` (where it is 0): steps that double.
template <class Frequencies>
double level_reaching_one(Frequencies at, double high) {
  double step = 1;
  while (sum_of(at(high - step)) < 1) step *= 2;
  return high - step;
}

// The frequencies x_i(level), non-increasing in the level, that sum to 1: the root by TOMS 748,
// then bisection down to adjacent doubles. A page whose x_i still jumps across that last bracket
// (one with h_i ~ 0, whose objective is linear in x_i, or one of several tied for the same
// threshold) is given what the others leave, shared in proportion to exp(log_share_i);
// renormalising instead would let its jump swamp the others. Returns the frequencies and the level.
template <class Frequencies>
std::pair<std::vector<double>, double> fill_to_one(Frequencies at, double low, double high,
                                                   const std::vector<double>& log_share) {
  const auto excess = [&](double level) { return std::min(sum_of(at(level)), 1e300) - 1.0; };
  std::uintmax_t iterations = 200;
  auto [a, b] = boost::math::tools::toms748_solve(excess, low, high, kTolerance, iterations);
  for (double mid = a + 0.5 * (b - a); mid > a && mid < b; mid = a + 0.5 * (b - a))
    (excess(mid) >= 0 ? a : b) = mid;
  const std::vector<double> above = at(a), below = at(b);
  const std::size_t n = above.size();
  std::vector<bool> steep(n, false);
  std::vector<double> x(n, 0.0);
  double settled = 0;
  bool any_steep = false;
  for (std::size_t i = 0; i < n; ++i) {
    steep[i] = !(above[i] - below[i] <= 1e-9);
    any_steep = any_steep || steep[i];
    if (!steep[i]) settled += x[i] = 0.5 * (above[i] + below[i]);
  }
  if (any_steep) {
    const std::vector<double> share = normalized_exponentials(log_share, steep);
    const double rest = std::max(0.0, 1.0 - settled);
    for (std::size_t i = 0; i < n; ++i)
      if (steep[i]) x[i] = rest * share[i];
  }
  const double total = sum_of(x);
  for (double& v : x) v /= total;  // the root's last bits
  return {x, 0.5 * (a + b)};
}

struct PageLogs {
  std::vector<double> ell;    // ln l_i
  std::vector<double> price;  // ln (mu_i E[X] / c_i)
  std::vector<double> odds;   // ln (1/h_i - 1) = ln (e^{l_i} - 1)
};

PageLogs page_logs(const model::RefreshModel& model, const LaplaceValues& h) {
  const double log_mean = std::log(model.access_time.mean());
  PageLogs p;
  for (int i = 0; i < model.pages(); ++i) {
    p.ell.push_back(h[i].log_ell);
    p.price.push_back(std::log(model.change_rates[i]) + log_mean - std::log(model.weights[i]));
    p.odds.push_back(h[i].ell > 1e-8 ? log_expm1(h[i].ell)
                                     : h[i].log_ell + std::log1p(0.5 * h[i].ell));
  }
  return p;
}

// x_i(lambda) of CLW (8): 0 where lambda >= c_i / (mu_i E[X]); otherwise l_i / u with phi(u) equal
// to t = lambda mu_i E[X] / c_i.
double bound_frequency(double log_lambda, double log_price, double log_ell) {
  const double log_t = log_lambda + log_price;
  if (log_t >= 0) return 0.0;
  return std::exp(log_ell - std::log(inverse_phi(log_t)));
}

std::vector<double> bound_rates(const LaplaceValues& h, const std::vector<double>& x) {
  std::vector<double> r;
  for (std::size_t i = 0; i < h.size(); ++i)
    r.push_back(evenly_spaced_obsolescence_rate(h[i], x[i]));
  return r;
}

}  // namespace

double bound_objective(const model::RefreshModel& model, const LaplaceValues& h,
                       const std::vector<double>& x) {
  return refresh_cost(model, bound_rates(h, x));
}

RefreshOptimum refresh_lower_bound_by_search(const model::RefreshModel& model,
                                             const LaplaceValues& h) {
  const PageLogs p = page_logs(model, h);
  const auto frequencies_at = [&](double log_lambda) {
    std::vector<double> x(model.pages());
    for (int i = 0; i < model.pages(); ++i)
      x[i] = bound_frequency(log_lambda, p.price[i], p.ell[i]);
    return x;
  };
  // At lambda = max c_i / (mu_i E[X]) every page has frequency 0; sum x_i(lambda) grows without
  // bound as lambda falls. Ties are shared as CLW (10) shares them: in proportion to l_i.
  const double high = -*std::min_element(p.price.begin(), p.price.end());
  const double low = level_reaching_one(frequencies_at, high);
  const auto [x, log_lambda] = fill_to_one(frequencies_at, low, high, p.ell);
  RefreshOptimum o;
  o.frequencies = x;
  o.multiplier = std::exp(log_lambda);
  o.obsolescence_rates = bound_rates(h, o.frequencies);
  o.cost = refresh_cost(model, o.obsolescence_rates);
  return o;
}

RefreshOptimum refresh_lower_bound(const model::RefreshModel& model, const LaplaceValues& h) {
  if (!model.weights_proportional_to_rates()) return refresh_lower_bound_by_search(model, h);
  // CLW (10): x_i = l_i / L with L = sum l_j; every page then has h_i^{1/x_i} = e^{-L}, and CLW (6)
  // is sum c_i (delta_i + kappa_i phi(L)) (phi of refresh_rates.hpp).
  const PageLogs p = page_logs(model, h);
  const double log_total = log_sum_exp(p.ell);
  const double total = std::exp(log_total);
  RefreshOptimum o;
  o.closed_form = true;
  o.frequencies = normalized_exponentials(p.ell, std::vector<bool>(model.pages(), true));
  const double staleness = evenly_spaced_staleness(total);
  for (int i = 0; i < model.pages(); ++i)
    o.obsolescence_rates.push_back(h[i].delta + h[i].kappa * staleness);
  o.cost = refresh_cost(model, o.obsolescence_rates);
  // CLW (8) with every h_i^{1/x_i} = e^{-L}: lambda = c_0 phi(L) / E[X], c_0 = c_i / mu_i.
  o.multiplier = std::exp(-p.price[0] + std::log(one_minus_y_plus_y_log_y(total)));
  return o;
}

double randomized_objective(const model::RefreshModel& model, const LaplaceValues& h,
                            const std::vector<double>& x) {
  return refresh_cost(model, randomized_obsolescence_rates(model, h, x));
}

RandomizedOptimum optimal_randomized_frequencies(const model::RefreshModel& model,
                                                 const LaplaceValues& h) {
  const int n = model.pages();
  const PageLogs p = page_logs(model, h);
  // ln sqrt(c_i / (mu_i E[X])): CLW (15) is x_i = (e^{root_i} / s - 1)(1/h_i - 1) with
  // s = sqrt(lambda).
  std::vector<double> root(n);
  for (int i = 0; i < n; ++i) root[i] = -0.5 * p.price[i];
  const double top_root = *std::max_element(root.begin(), root.end());
  const double top_odds = *std::max_element(p.odds.begin(), p.odds.end());
  // The condition after CLW (16), scaled by e^{top_root} and e^{top_odds}:
  // min root_i >= ln(weighted / (1 + total)).
  double weighted = 0, total = std::exp(-top_odds);
  for (int i = 0; i < n; ++i) {
    weighted += std::exp(root[i] - top_root + p.odds[i] - top_odds);
    total += std::exp(p.odds[i] - top_odds);
  }
  // ln s of CLW (15) with every page read.
  const double log_threshold = top_root + std::log(weighted / total);
  RandomizedOptimum o;
  o.validity_condition_holds = *std::min_element(root.begin(), root.end()) >= log_threshold;
  if (model.weights_proportional_to_rates()) {
    o.closed_form = true;  // CLW (16): x_i proportional to 1/h_i - 1
    o.frequencies = normalized_exponentials(p.odds, std::vector<bool>(n, true));
    o.multiplier = std::exp(2 * log_threshold);
  } else {
    // CLW (15) clipped at 0 (the KKT condition of a page read with frequency 0), summing to 1: when
    // the condition holds no page is clipped and the level is the s above.
    const auto frequencies_at = [&](double log_s) {
      std::vector<double> x(n, 0.0);
      for (int i = 0; i < n; ++i)
        if (root[i] > log_s) x[i] = std::exp(log_expm1(root[i] - log_s) + p.odds[i]);
      return x;
    };
    const auto [x, log_s] =
        fill_to_one(frequencies_at, level_reaching_one(frequencies_at, top_root), top_root, p.odds);
    o.frequencies = x;
    o.multiplier = std::exp(2 * log_s);
  }
  o.obsolescence_rates = randomized_obsolescence_rates(model, h, o.frequencies);
  o.cost = refresh_cost(model, o.obsolescence_rates);
  return o;
}

double two_phi_squared_over_five() {
  const double phi = (1.0 + std::sqrt(5.0)) / 2.0;
  return 2.0 * phi * phi / 5.0;
}

double golden_ratio_limit_ratio(double q) {
  if (q <= 0) return two_phi_squared_over_five();
  // H(q) = (q - 1 + a e^{-bq} + c e^{-dq}) / (q - 1 + e^{-q}) with a = 1 - 1/phi, b = phi/sqrt5,
  // c = 1/phi, d = phi^2/sqrt5. As a + c = 1 and ab + cd = 1, the numerator is a psi(bq) + c
  // psi(dq) with psi(y) = y - 1 + e^{-y} = y phi(y), and nothing cancels as q -> 0; from q = 1 on,
  // H - 1 = (a e^{-bq} + c e^{-dq} - e^{-q}) / psi(q) > 0 keeps H >= 1 where the quotient rounds
  // below it.
  const double phi = (1.0 + std::sqrt(5.0)) / 2.0, root5 = std::sqrt(5.0);
  const double a = 1.0 - 1.0 / phi, b = phi / root5, c = 1.0 / phi, d = phi * phi / root5;
  const double psi = q * evenly_spaced_staleness(q);
  if (q >= 1) return 1.0 + (a * std::exp(-b * q) + c * std::exp(-d * q) - std::exp(-q)) / psi;
  return (a * b * evenly_spaced_staleness(b * q) + c * d * evenly_spaced_staleness(d * q)) /
         evenly_spaced_staleness(q);
}

}  // namespace crawlq::analytic
