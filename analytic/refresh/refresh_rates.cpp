#include "analytic/refresh/refresh_rates.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace crawlq::analytic {

std::vector<model::LaplaceValue> access_laplace_values(const model::RefreshModel& model) {
  std::vector<model::LaplaceValue> values;
  for (double mu : model.change_rates) values.push_back(model.access_time.laplace_value(mu));
  return values;
}

std::vector<double> laplace_transforms(const std::vector<model::LaplaceValue>& values) {
  std::vector<double> h;
  for (const auto& v : values) h.push_back(v.h());
  return h;
}

double evenly_spaced_staleness(double y) {
  if (y >= 1.0) return 1.0 + std::expm1(-y) / y;
  // Below 1 the series sum_{n >= 2} (-1)^n y^{n-1} / n!, whose terms shrink at once: 1 - (1 -
  // e^{-y}) / y would lose all digits as y -> 0.
  double term = y / 2, sum = term;  // term = y^{n-1} / n!
  for (int n = 3; n < 22; ++n) {
    term *= y / n;
    sum += (n % 2 == 0 ? term : -term);
  }
  return sum;
}

double expected_stale_time(const model::LaplaceValue& v, double mean_access, long distance) {
  const double d = static_cast<double>(distance);
  return mean_access * d * (v.delta + v.kappa * evenly_spaced_staleness(d * v.ell));
}

std::vector<double> cyclic_obsolescence_rates(const model::RefreshModel& model,
                                              const std::vector<model::LaplaceValue>& values,
                                              const std::vector<int>& cycle) {
  const long k = static_cast<long>(cycle.size());
  std::vector<long> first(model.pages(), -1), last(model.pages(), -1);
  // sum_j d_j phi(d_j l): non-negative terms, up to 10^9 of them; long double keeps the rounding of
  // such a sum below 1e-10.
  std::vector<long double> stale(model.pages(), 0.0L);
  const auto add = [&](int page, long distance) {
    const double d = static_cast<double>(distance);
    stale[page] += d * evenly_spaced_staleness(d * values[page].ell);
  };
  for (long s = 0; s < k; ++s) {
    const int page = cycle[s];
    if (last[page] >= 0)
      add(page, s - last[page]);
    else
      first[page] = s;
    last[page] = s;
  }
  std::vector<double> rates(model.pages());
  for (int i = 0; i < model.pages(); ++i) {
    if (first[i] < 0) throw std::invalid_argument("a page the cycle never reads is always stale");
    add(i, first[i] + k - last[i]);  // the interval that wraps around to the next cycle
    const double share = static_cast<double>(stale[i] / static_cast<long double>(k));
    rates[i] = values[i].delta + values[i].kappa * share;
  }
  return rates;
}

double randomized_obsolescence_rate(const model::LaplaceValue& v, double f) {
  // CLW Lemma 4.1's bracket 1 - (f / l) (1 - h) / (1 - h + f h), over one denominator: its
  // numerator (1 - f) l (1 - h) + f (l - 1 + h) is a sum of non-negative terms.
  const double c = v.one_minus_h(), h = v.h();
  const double share = ((1.0 - f) * c + f * evenly_spaced_staleness(v.ell)) / (c + f * h);
  return v.delta + v.kappa * std::min(1.0, share);
}

std::vector<double> randomized_obsolescence_rates(const model::RefreshModel& model,
                                                  const std::vector<model::LaplaceValue>& values,
                                                  const std::vector<double>& frequencies) {
  std::vector<double> rates(model.pages());
  for (int i = 0; i < model.pages(); ++i)
    rates[i] = randomized_obsolescence_rate(values[i], frequencies[i]);
  return rates;
}

double evenly_spaced_obsolescence_rate(const model::LaplaceValue& v, double frequency) {
  if (frequency <= 0) return 1.0;
  return v.delta + v.kappa * evenly_spaced_staleness(v.ell / frequency);
}

std::vector<double> cycle_frequencies(const std::vector<int>& cycle, int pages) {
  std::vector<double> f(pages, 0.0);
  for (int page : cycle) f[page] += 1.0;
  for (double& x : f) x /= static_cast<double>(cycle.size());
  return f;
}

double refresh_cost(const model::RefreshModel& model, const std::vector<double>& rates) {
  double cost = 0;
  for (int i = 0; i < model.pages(); ++i) cost += model.weights[i] * rates[i];
  return cost;
}

double cost_ratio(const model::RefreshModel& model, const std::vector<double>& rates,
                  const std::vector<double>& other_rates) {
  const double largest = *std::max_element(model.weights.begin(), model.weights.end());
  double cost = 0, other = 0;
  for (int i = 0; i < model.pages(); ++i) {
    cost += model.weights[i] / largest * rates[i];
    other += model.weights[i] / largest * other_rates[i];
  }
  return cost / other;
}

}  // namespace crawlq::analytic
