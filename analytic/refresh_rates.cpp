#include "analytic/refresh_rates.hpp"

#include <cmath>
#include <stdexcept>

namespace crawlq::analytic {

std::vector<double> access_laplace_values(const model::RefreshModel& model) {
  std::vector<double> h;
  for (double mu : model.change_rates) h.push_back(model.access_time.laplace_transform(mu));
  return h;
}

double expected_stale_time(double mu, double h, double mean_access, long distance) {
  // 1 - h^d as -expm1(d ln h): no cancellation when h^d is close to 1.
  return static_cast<double>(distance) * mean_access + std::expm1(static_cast<double>(distance) * std::log(h)) / mu;
}

std::vector<double> cyclic_obsolescence_rates(const model::RefreshModel& model, const std::vector<double>& h,
                                              const std::vector<int>& cycle) {
  const long k = static_cast<long>(cycle.size());
  const double mean = model.access_time.mean();
  std::vector<long> first(model.pages(), -1), last(model.pages(), -1);
  std::vector<double> stale(model.pages(), 0.0);
  for (long s = 0; s < k; ++s) {
    const int page = cycle[s];
    if (last[page] >= 0)
      stale[page] += expected_stale_time(model.change_rates[page], h[page], mean, s - last[page]);
    else
      first[page] = s;
    last[page] = s;
  }
  std::vector<double> rates(model.pages());
  for (int i = 0; i < model.pages(); ++i) {
    if (first[i] < 0) throw std::invalid_argument("a page the cycle never reads is always stale");
    // The interval that wraps around to the next cycle.
    stale[i] += expected_stale_time(model.change_rates[i], h[i], mean, first[i] + k - last[i]);
    rates[i] = stale[i] / (static_cast<double>(k) * mean);
  }
  return rates;
}

std::vector<double> randomized_obsolescence_rates(const model::RefreshModel& model, const std::vector<double>& h,
                                                  const std::vector<double>& frequencies) {
  const double mean = model.access_time.mean();
  std::vector<double> rates(model.pages());
  for (int i = 0; i < model.pages(); ++i) {
    const double f = frequencies[i], scaled = f / (model.change_rates[i] * mean);
    rates[i] = 1.0 - scaled + scaled * f * h[i] / (1.0 - h[i] + f * h[i]);
  }
  return rates;
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

}  // namespace crawlq::analytic
