// `solve --sojourn --json`'s sojourn keys against closed forms. One robot mode, Poisson arrivals of
// single pages at rate lambda, exponential service at rate mu, no obsolescence: the M/M/1/K queue.
// By PASTA an arriving page finds n pages with the stationary pi_n ~ rho^n (n = 0..K); found n < K
// it is admitted and served after n + 1 exponential stages, so its sojourn is Erlang(n + 1, mu)
// with weight w_n = pi_n / (1 - pi_K). Mean, sd and quantiles of that mixture are written out here
// from the Erlang laws alone; none of analytic/ is used for them.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "api/solve_request.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq {
namespace {

constexpr double kLambda = 1.5, kMu = 2.0;
constexpr int kCapacity = 6;

// Weights of Erlang(n + 1, mu), n = 0..K-1, for an admitted page.
std::vector<double> admitted_weights() {
  std::vector<double> pi;
  double total = 0;
  for (int n = 0; n <= kCapacity; ++n) total += pi.emplace_back(std::pow(kLambda / kMu, n));
  std::vector<double> w(pi.begin(), pi.end() - 1);
  for (double& x : w) x /= total - pi.back();
  return w;
}

double mixture_moment(int power) {
  const std::vector<double> w = admitted_weights();
  double m = 0;
  for (std::size_t n = 0; n < w.size(); ++n) {
    // E[X^k] of Erlang(s, mu) is s (s + 1) ... (s + k - 1) / mu^k.
    double e = 1;
    for (int j = 0; j < power; ++j) e *= static_cast<double>(n + 1 + j) / kMu;
    m += w[n] * e;
  }
  return m;
}

double mixture_cdf(double x) {
  const std::vector<double> w = admitted_weights();
  double f = 0;
  for (std::size_t n = 0; n < w.size(); ++n) {
    // P(Erlang(n + 1, mu) > x) = e^{-mu x} sum_{j <= n} (mu x)^j / j!
    double term = std::exp(-kMu * x), tail = 0;
    for (std::size_t j = 0; j <= n; ++j) {
      tail += term;
      term *= kMu * x / static_cast<double>(j + 1);
    }
    f += w[n] * (1 - tail);
  }
  return f;
}

double mixture_quantile(double level) {
  double low = 0, high = 1;
  while (mixture_cdf(high) < level) high *= 2;
  for (int i = 0; i < 200 && high - low > 1e-15 * high; ++i) {
    const double mid = 0.5 * (low + high);
    (mixture_cdf(mid) < level ? low : high) = mid;
  }
  return high;
}

nlohmann::json solved_json() {
  const std::string text = "name: mm1k\ncapacity: " + std::to_string(kCapacity) +
                           "\narrivals: {kind: poisson, modes: [{rate: 1.5}]}\n"
                           "service: {exponential: {mean: 0.5}}\n"
                           "costs: {loss: 1}\npolicy: {levels: [1, 1, 1, 1, 1, 1, 1]}\n";
  const model::Model m = scenarios::parse_scenario(text, "mm1k.yaml").model;
  api::SolveRequest request{.source = "mm1k.yaml",
                            .model = m,
                            .policy = *m.policy,
                            .method = analytic::Method::kAuto,
                            .threads = 1,
                            .sojourn = true,
                            .transforms = {},
                            .cdf_points = {}};
  return api::to_json(request, api::solve(request));
}

TEST_CASE("solve --sojourn JSON: M/M/1/K mean, sd, median, p90 and p99 equal the Erlang mixture's",
          "[api][sojourn]") {
  const nlohmann::json j = solved_json();
  const double mean = mixture_moment(1);
  const double sd = std::sqrt(mixture_moment(2) - mean * mean);
  const double p_full = std::pow(kLambda / kMu, kCapacity) * (1 - kLambda / kMu) /
                        (1 - std::pow(kLambda / kMu, kCapacity + 1));
  // With no obsolescence every admitted page is served: both fates have the one law.
  for (const char* fate : {"accepted", "served"}) {
    INFO(fate << ": " << j.at("sojourn").at(fate).dump());
    const auto& law = j.at("sojourn").at(fate);
    CHECK(law.at("probability").get<double>() == Approx(1 - p_full).epsilon(1e-9));
    CHECK(law.at("mean").get<double>() == Approx(mean).epsilon(1e-6));
    CHECK(law.at("sd").get<double>() == Approx(sd).epsilon(1e-6));
    CHECK(law.at("median").get<double>() == Approx(mixture_quantile(0.5)).epsilon(1e-6));
    CHECK(law.at("p90").get<double>() == Approx(mixture_quantile(0.9)).epsilon(1e-6));
    CHECK(law.at("p99").get<double>() == Approx(mixture_quantile(0.99)).epsilon(1e-6));
  }
  // The sd differs from the mean here (a mixture of Erlangs is no exponential), so the one cannot
  // stand in for the other.
  CHECK(std::abs(sd - mean) > 0.1 * mean);
  const auto& obsolete = j.at("sojourn").at("obsolete");
  CHECK(obsolete.at("probability").get<double>() == 0.0);
  CHECK(obsolete.at("median").is_null());
}

}  // namespace
}  // namespace crawlq
