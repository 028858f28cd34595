// The refresh simulator against the exact obsolescence rates of Coffman, Liu and Weber (1998),
// computed here from the paper's formulas and nothing else (not analytic/: agreement is evidence
// only when the two are independent). Each test case checks m rates and costs; each must lie within
// a Bonferroni-corrected Student bound, t_{1 - alpha/(2m), R-1} standard errors with alpha = 0.01
// per test case, so a correct simulator raises a false alarm in about one test case in a hundred
// (the seeds are fixed, so a pass repeats).
#include <Eigen/Dense>
#include <boost/math/distributions/students_t.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "model/refresh_model.hpp"
#include "sim/refresh_simulator.hpp"

using namespace crawlq;

namespace {

constexpr double kFamilyAlpha = 0.01;
constexpr int kReplications = 20;
constexpr double kHorizon = 4e5;  // about 400,000 reads per replication (E[X] = 1)
constexpr double kWarmup = 2000;

struct Law {
  std::string name;
  model::AccessTime x;
};

// E[X] = 1 for all three: exponential, hyperexponential with beta = (0.9, 0.1) (squared
// coefficient of variation 4.6), deterministic.
std::vector<Law> laws() {
  Eigen::MatrixXd t = Eigen::MatrixXd::Zero(2, 2);
  t(0, 0) = -1.8;
  t(1, 1) = -0.2;
  return {{"exponential", model::AccessTime(model::PhaseType::exponential(1.0))},
          {"hyperexponential",
           model::AccessTime(model::PhaseType((Eigen::RowVectorXd(2) << 0.9, 0.1).finished(), t))},
          {"deterministic", model::AccessTime(model::DeterministicTime{1.0})}};
}

// E[X] = alpha (-T)^{-1} e, or the constant.
double mean(const model::AccessTime& x) {
  if (const auto* c = std::get_if<model::DeterministicTime>(&x.law())) return c->value;
  const auto& ph = std::get<model::PhaseType>(x.law());
  const Eigen::MatrixXd minus_t = -ph.subgenerator();
  return ph.initial() * minus_t.partialPivLu().solve(Eigen::VectorXd::Ones(ph.phases()));
}

// h = E exp(-mu X): alpha (mu I - T)^{-1} t with t = -T e, or exp(-mu d).
double laplace(const model::AccessTime& x, double mu) {
  if (const auto* c = std::get_if<model::DeterministicTime>(&x.law()))
    return std::exp(-mu * c->value);
  const auto& ph = std::get<model::PhaseType>(x.law());
  const Eigen::MatrixXd& t = ph.subgenerator();
  const Eigen::VectorXd exits = -(t * Eigen::VectorXd::Ones(ph.phases()));
  const Eigen::MatrixXd shifted = mu * Eigen::MatrixXd::Identity(ph.phases(), ph.phases()) - t;
  return ph.initial() * shifted.partialPivLu().solve(exits);
}

// Lemma 4.1: r_i = (1/E[X]) (E[X] - f_i/mu_i + (f_i/mu_i) f_i h_i / (1 - h_i + f_i h_i)).
std::vector<double> randomized_rates(const model::RefreshModel& m, const std::vector<double>& f) {
  const double ex = mean(m.access_time);
  std::vector<double> r;
  for (int i = 0; i < m.pages(); ++i) {
    const double mu = m.change_rates[i], h = laplace(m.access_time, mu);
    r.push_back((ex - f[i] / mu + (f[i] / mu) * f[i] * h / (1 - h + f[i] * h)) / ex);
  }
  return r;
}

// (3) with Lemma 3.1: r_i = (1/(K E[X])) sum over page i's reads in a cycle of E[Z] = d E[X] -
// (1 - h_i^d)/mu_i, d the circular number of reads from that read of page i to its next one.
std::vector<double> cyclic_rates(const model::RefreshModel& m, const std::vector<int>& cycle) {
  const double ex = mean(m.access_time);
  const int k = static_cast<int>(cycle.size());
  std::vector<double> z(m.pages(), 0.0);
  for (int at = 0; at < k; ++at) {
    const int page = cycle[at];
    int d = 1;
    while (cycle[(at + d) % k] != page) ++d;
    const double mu = m.change_rates[page];
    z[page] += d * ex - (1 - std::pow(laplace(m.access_time, mu), d)) / mu;
  }
  for (double& zi : z) zi /= k * ex;
  return z;
}

struct Check {
  std::string name;
  double exact;
  sim::Interval simulated;
  std::uint64_t seed;
};

// The rates and the cost of one simulation beside the exact ones.
void add_checks(std::vector<Check>& checks, const std::string& what, const model::RefreshModel& m,
                const std::vector<double>& exact, const sim::RefreshSimulationResult& s,
                std::uint64_t seed) {
  double cost = 0;
  for (int i = 0; i < m.pages(); ++i) {
    checks.push_back(
        {what + " r_" + std::to_string(i), exact[i], s.obsolescence_rates.at(i), seed});
    cost += m.weights[i] * exact[i];
  }
  checks.push_back({what + " cost", cost, s.cost, seed});
}

void expect_inside(const std::vector<Check>& checks) {
  const boost::math::students_t t(kReplications - 1);
  const double t95 = boost::math::quantile(boost::math::complement(t, 0.025));
  const double m = static_cast<double>(checks.size());
  const double allowed =
      boost::math::quantile(boost::math::complement(t, kFamilyAlpha / (2 * m))) / t95;
  for (const auto& c : checks) {
    INFO("seed " << c.seed << ", " << c.name << ": simulated " << c.simulated.mean << " +- "
                 << c.simulated.half_width << ", exact " << c.exact << " (bound " << allowed
                 << " half-widths)");
    CHECK(std::abs(c.simulated.mean - c.exact) <= allowed * c.simulated.half_width);
    // Sharp enough that an error of a few per cent would show.
    CHECK(c.simulated.half_width < 0.02 * c.exact);
  }
}

sim::RefreshSimulationPlan plan(std::uint64_t seed) {
  sim::RefreshSimulationPlan p;
  p.seed = seed;
  p.replications = kReplications;
  p.horizon = kHorizon;
  p.warmup = kWarmup;
  p.threads = 0;
  return p;
}

model::RefreshModel six_pages(const model::AccessTime& x) {
  return model::RefreshModel{
      "six pages", {0.01, 0.05, 0.1, 0.3, 0.6, 1.5}, {3.0, 1.0, 2.0, 0.5, 1.0, 0.2}, x, {}};
}

void check_cyclic(const std::string& what, const std::vector<double>& rates,
                  const std::vector<double>& weights, const std::vector<int>& cycle,
                  std::uint64_t seed) {
  std::vector<Check> checks;
  for (const auto& law : laws()) {
    const model::RefreshModel m{what, rates, weights, law.x, {}};
    const auto s = sim::simulate_refresh(m, sim::CyclicOrder{cycle}, plan(seed));
    add_checks(checks, law.name, m, cyclic_rates(m, cycle), s, seed);
    ++seed;
  }
  expect_inside(checks);
}

}  // namespace

TEST_CASE("randomized order: the simulated rates agree with Lemma 4.1", "[crosscheck][refresh]") {
  const std::vector<double> f{0.05, 0.1, 0.15, 0.2, 0.22, 0.28};
  std::vector<Check> checks;
  std::uint64_t seed = 101;
  for (const auto& law : laws()) {
    const auto m = six_pages(law.x);
    const auto s = sim::simulate_refresh(m, sim::RandomizedOrder{f}, plan(seed));
    add_checks(checks, law.name, m, randomized_rates(m, f), s, seed);
    ++seed;
  }
  expect_inside(checks);
}

TEST_CASE("cyclic order: the simulated rates agree with (3) and Lemma 3.1",
          "[crosscheck][refresh]") {
  // Pages read once, once, once, twice, three and four times in a cycle of 12.
  check_cyclic("six pages",
               six_pages(model::AccessTime(model::DeterministicTime{1.0})).change_rates,
               {3.0, 1.0, 2.0, 0.5, 1.0, 0.2}, {0, 5, 4, 3, 5, 2, 4, 5, 1, 3, 5, 4}, 201);
}

TEST_CASE("golden-ratio order: the paper's example cycle agrees with (3) and Lemma 3.1",
          "[crosscheck][refresh]") {
  // Section 5's example (N = 4, f = (2, 3, 3, 5)/13, F_8 = 13), pages numbered from 0; c_i = mu_i.
  const std::vector<double> mu{0.05, 0.1, 0.15, 0.25};
  check_cyclic("golden ratio", mu, mu, {3, 1, 3, 0, 2, 3, 1, 3, 0, 2, 3, 1, 2}, 301);
}

TEST_CASE("pages whose h underflows to 0: the simulated rates agree with Lemma 4.1 and (3)",
          "[crosscheck][refresh]") {
  // mu X = 800 and 1000: a page is stale almost surely after each read, h = e^{-mu} is 0 in doubles
  // and the paper's formulas reduce to r_i = 1 - f_i / (mu_i E[X]) (randomized) and
  // r_i = 1 - M_i / (K mu_i E[X]) (cyclic); the 0.3 page keeps an ordinary h.
  const model::RefreshModel m{"h = 0",
                              {0.3, 800, 1000},
                              {1.0, 2.0, 3.0},
                              model::AccessTime(model::DeterministicTime{1.0}),
                              {}};
  std::vector<Check> checks;
  const std::vector<double> f{0.5, 0.3, 0.2};
  add_checks(checks, "randomized", m, randomized_rates(m, f),
             sim::simulate_refresh(m, sim::RandomizedOrder{f}, plan(401)), 401);
  const std::vector<int> cycle{0, 1, 0, 2, 1};
  add_checks(checks, "cyclic", m, cyclic_rates(m, cycle),
             sim::simulate_refresh(m, sim::CyclicOrder{cycle}, plan(402)), 402);
  expect_inside(checks);
}
