// The brute force itself against closed forms (M/M/1/K, impatience as a birth-death chain, batches
// of two solved by hand, level-dependent Poisson modes, Erlang loss insensitivity) and against its
// own conservation laws, so that the crosscheck does not trust it blindly.
#include "tests/crosscheck/brute_force_chain.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <vector>

#include "tests/crosscheck/brute_force_sojourn.hpp"
#include "tests/crosscheck/random_models.hpp"
#include "tests/support/birth_death.hpp"

namespace crawlq::crosscheck {
namespace {

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using model::Matrix;

constexpr double kTight = 1e-12;

model::Bmap poisson(double rate, int batch = 1) {
  std::vector<Matrix> d(batch + 1, Matrix::Zero(1, 1));
  d[0](0, 0) = -rate;
  d[batch](0, 0) = rate;
  return model::Bmap(std::move(d));
}

model::Model single_mode(int capacity, model::Bmap arrivals, model::PhaseType service,
                         std::optional<model::PhaseType> obsolescence = std::nullopt,
                         model::Admission admission = model::Admission::kPartial) {
  return model::Model{.name = "closed-form",
                      .capacity = capacity,
                      .admission = admission,
                      .arrivals = model::ArrivalModes({std::move(arrivals)}),
                      .service = std::move(service),
                      .obsolescence = std::move(obsolescence),
                      .costs = {},
                      .policy = model::Policy::constant(1, 1, capacity)};
}

std::vector<double> normalised(std::vector<double> weights) {
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  for (double& w : weights) w /= total;
  return weights;
}

void check_levels(const ChainMeasures& measures, const std::vector<double>& expected) {
  REQUIRE(measures.level_probabilities.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("level " << i);
    CHECK_THAT(measures.level_probabilities[i], WithinRel(expected[i], kTight));
  }
}

double erlang_cdf(int stages, double rate, double x) {
  double term = 1.0, sum = 0.0;
  for (int n = 0; n < stages; ++n) {
    sum += term;
    term *= rate * x / (n + 1);
  }
  return 1.0 - std::exp(-rate * x) * sum;
}

TEST_CASE("brute force: M/M/1/K levels, measures and Erlang sojourn times", "[crosscheck]") {
  const double lambda = 1.3, mu = 2.0;
  const int capacity = 4;
  const model::Model m = single_mode(capacity, poisson(lambda), model::PhaseType::exponential(mu));
  const BruteForceChain chain(m, *m.level_map());
  std::vector<double> p;
  for (int i = 0; i <= capacity; ++i) p.push_back(std::pow(lambda / mu, i));
  p = normalised(p);
  const ChainMeasures& out = chain.measures();
  check_levels(out, p);
  CHECK(chain.residual() < 1e-13);
  CHECK_THAT(out.lambda, WithinRel(lambda, kTight));
  CHECK_THAT(out.p_loss, WithinRel(p[capacity], kTight));
  CHECK_THAT(out.p_served, WithinRel(1 - p[capacity], kTight));
  CHECK(out.p_obsolete == 0.0);
  CHECK_THAT(out.p_starvation, WithinRel(p[0], kTight));
  double in_system = 0, in_queue = 0;
  for (int i = 0; i <= capacity; ++i) {
    in_system += i * p[i];
    in_queue += std::max(i - 1, 0) * p[i];
  }
  CHECK_THAT(out.mean_in_system, WithinRel(in_system, kTight));
  CHECK_THAT(out.mean_in_queue, WithinRel(in_queue, kTight));
  CHECK_THAT(out.mean_active_robots, WithinRel(1.0, kTight));

  // A page that finds n pages waits for n + 1 exponential services.
  const BruteForceSojourn sojourn(m, chain);
  const double accepted = 1 - p[capacity];
  double mean = 0;
  for (int n = 0; n < capacity; ++n) mean += p[n] * (n + 1) / mu / accepted;
  CHECK_THAT(sojourn.probability(Fate::kAccepted), WithinRel(accepted, kTight));
  CHECK_THAT(sojourn.probability(Fate::kServed), WithinRel(accepted, kTight));
  CHECK_THAT(sojourn.mean(Fate::kAccepted), WithinRel(mean, kTight));
  CHECK_THAT(sojourn.mean(Fate::kServed), WithinRel(mean, kTight));
  CHECK(sojourn.mean(Fate::kObsolete) == 0.0);
  for (double x : {0.1, 0.7, 2.0, 5.0}) {
    double cdf = 0;
    for (int n = 0; n < capacity; ++n) cdf += p[n] * erlang_cdf(n + 1, mu, x) / accepted;
    INFO("x = " << x);
    CHECK_THAT(sojourn.cdf(Fate::kServed, x), WithinRel(cdf, 1e-10));
    CHECK_THAT(sojourn.cdf(Fate::kAccepted, x), WithinRel(cdf, 1e-10));
  }
}

TEST_CASE("brute force: M/M/1/K with exponential impatience is a birth-death chain",
          "[crosscheck]") {
  const double lambda = 1.7, mu = 1.1, theta = 0.6;
  const int capacity = GENERATE(2, 4);
  INFO("K = " << capacity);
  const model::Model m = single_mode(capacity, poisson(lambda), model::PhaseType::exponential(mu),
                                     model::PhaseType::exponential(theta));
  const BruteForceChain chain(m, *m.level_map());
  // Death rate at level i: mu + (i-1) theta.
  const std::vector<double> p =
      test_support::birth_death_levels(std::vector<double>(capacity + 1, lambda), mu, theta);
  const ChainMeasures& out = chain.measures();
  check_levels(out, p);
  double expired = 0, served = 0;
  for (int i = 1; i <= capacity; ++i) {
    expired += p[i] * (i - 1) * theta;
    served += p[i] * mu;
  }
  CHECK_THAT(out.p_loss, WithinRel(p[capacity], kTight));
  CHECK_THAT(out.p_obsolete, WithinRel(expired / lambda, kTight));
  CHECK_THAT(out.p_served, WithinRel(served / lambda, kTight));

  // With j pages ahead, the next event moves the page up (rate mu + j theta) or ends it (theta).
  // E(j): mean sojourn; E_s(j): E[tau; served]; P_s(j): P(served); j = -1 means in service.
  std::vector<double> mean_all{1 / mu}, mean_served{1 / mu}, p_served{1.0};
  for (int j = 0; j <= capacity - 2; ++j) {
    const double total = mu + (j + 1) * theta;
    const double advance = (mu + j * theta) / total;
    p_served.push_back(advance * p_served.back());
    mean_all.push_back(1 / total + advance * mean_all.back());
    mean_served.push_back(p_served.back() / total + advance * mean_served.back());
  }
  double accepted = 0, all = 0, served_weight = 0, served_time = 0;
  for (int n = 0; n < capacity; ++n) {  // n pages found, so n-1 ahead in the queue
    accepted += p[n];
    all += p[n] * mean_all[n];
    served_weight += p[n] * p_served[n];
    served_time += p[n] * mean_served[n];
  }
  const BruteForceSojourn sojourn(m, chain);
  CHECK_THAT(sojourn.probability(Fate::kAccepted), WithinRel(accepted, kTight));
  CHECK_THAT(sojourn.probability(Fate::kServed), WithinRel(served_weight, kTight));
  CHECK_THAT(sojourn.probability(Fate::kServed), WithinRel(out.p_served, 1e-11));
  CHECK_THAT(sojourn.probability(Fate::kObsolete), WithinRel(out.p_obsolete, 1e-11));
  CHECK_THAT(sojourn.mean(Fate::kAccepted), WithinRel(all / accepted, kTight));
  CHECK_THAT(sojourn.mean(Fate::kServed), WithinRel(served_time / served_weight, kTight));
  if (capacity == 2) {
    // Only a page that finds one page in service can expire, after an exp(mu + theta) wait.
    for (double x : {0.2, 1.0, 3.0})
      CHECK_THAT(sojourn.cdf(Fate::kObsolete, x),
                 WithinRel(1 - std::exp(-(mu + theta) * x), 1e-10));
    CHECK_THAT(sojourn.mean(Fate::kObsolete), WithinRel(1 / (mu + theta), kTight));
  }
}

TEST_CASE("brute force: batches of two into K = 2 under both admission rules", "[crosscheck]") {
  const double a = 0.8, mu = 1.5;
  SECTION("partial: the second page of a batch finding one page is lost") {
    const model::Model m =
        single_mode(2, poisson(a, 2), model::PhaseType::exponential(mu), std::nullopt);
    const BruteForceChain chain(m, *m.level_map());
    // 0 -> 2 and 1 -> 2 at rate a, down at rate mu.
    const double p1 = a / mu, p2 = a * (1 + p1) / mu;
    const std::vector<double> p = normalised({1.0, p1, p2});
    check_levels(chain.measures(), p);
    CHECK_THAT(chain.measures().lambda, WithinRel(2 * a, kTight));
    CHECK_THAT(chain.measures().p_loss, WithinRel((a * p[1] + 2 * a * p[2]) / (2 * a), kTight));
    // From an empty system: positions 1 and 2 (1/mu, 2/mu); from level 1 only position 1 (2/mu).
    const BruteForceSojourn sojourn(m, chain);
    const double mean = (p[0] * 3 / mu + p[1] * 2 / mu) / (2 * p[0] + p[1]);
    CHECK_THAT(sojourn.mean(Fate::kAccepted), WithinRel(mean, kTight));
    CHECK_THAT(sojourn.probability(Fate::kAccepted), WithinRel((2 * p[0] + p[1]) / 2, kTight));
  }
  SECTION("reject-batch: a batch finding one page is lost whole") {
    const model::Model m = single_mode(2, poisson(a, 2), model::PhaseType::exponential(mu),
                                       std::nullopt, model::Admission::kRejectBatch);
    const BruteForceChain chain(m, *m.level_map());
    const std::vector<double> p = normalised({1.0, a / mu, a / mu});
    check_levels(chain.measures(), p);
    CHECK_THAT(chain.measures().p_loss, WithinRel(2 * a * (p[1] + p[2]) / (2 * a), kTight));
    const BruteForceSojourn sojourn(m, chain);
    CHECK_THAT(sojourn.mean(Fate::kAccepted), WithinRel(1.5 / mu, kTight));
  }
}

TEST_CASE("brute force: Poisson modes switched by level", "[crosscheck]") {
  const double a1 = 0.7, a2 = 2.3, mu = 1.4;
  const int capacity = 3;
  const std::vector<int> levels{2, 1, 2, 1};
  model::Model m = single_mode(capacity, poisson(a1), model::PhaseType::exponential(mu));
  m.arrivals = model::ArrivalModes({poisson(a1), poisson(a2)});
  m.policy = model::Policy::from_levels(levels, 2, capacity);
  const BruteForceChain chain(m, *m.level_map());
  const auto rate = [&](int level) { return levels[level] == 1 ? a1 : a2; };
  std::vector<double> p{1.0};
  for (int i = 1; i <= capacity; ++i) p.push_back(p.back() * rate(i - 1) / mu);
  p = normalised(p);
  check_levels(chain.measures(), p);
  double lambda = 0, robots = 0, two = 0;
  for (int i = 0; i <= capacity; ++i) {
    lambda += p[i] * rate(i);
    robots += p[i] * levels[i];
    if (levels[i] == 2) two += p[i];
  }
  CHECK_THAT(chain.measures().lambda, WithinRel(lambda, kTight));
  CHECK_THAT(chain.measures().mean_active_robots, WithinRel(robots, kTight));
  CHECK_THAT(chain.measures().mode_probabilities[1], WithinRel(two, kTight));
  CHECK_THAT(chain.measures().mode_probabilities[0], WithinRel(1 - two, kTight));
  CHECK_THAT(chain.measures().p_loss, WithinRel(p[capacity] * rate(capacity) / lambda, kTight));
}

TEST_CASE("brute force: the Erlang loss formula holds for phase-type service", "[crosscheck]") {
  const double lambda = 0.9;
  const model::PhaseType service = model::PhaseType::erlang(3, 2.5);
  const model::Model m = single_mode(1, poisson(lambda), service, model::PhaseType::erlang(2, 1.0));
  const BruteForceChain chain(m, *m.level_map());
  const double rho = lambda * service.mean();
  check_levels(chain.measures(), {1 / (1 + rho), rho / (1 + rho)});
  const BruteForceSojourn sojourn(m, chain);
  CHECK_THAT(sojourn.mean(Fate::kServed), WithinRel(service.mean(), kTight));
  CHECK_THAT(sojourn.cdf(Fate::kServed, 1.0), WithinRel(erlang_cdf(3, 2.5, 1.0), 1e-10));
}

TEST_CASE("brute force: conservation laws on random models", "[crosscheck]") {
  for (std::uint64_t seed = 1000; seed < 1020; ++seed) {
    const model::Model m =
        random_model(seed, {.single_arrivals = seed % 4 == 0, .max_states = 400});
    INFO(describe(m));
    const BruteForceChain chain(m, *m.level_map());
    const ChainMeasures& out = chain.measures();
    CHECK(chain.generator().rowwise().sum().cwiseAbs().maxCoeff() < 1e-12);
    CHECK(chain.residual() < 1e-12);
    CHECK(chain.probabilities().minCoeff() > -1e-14);
    CHECK_THAT(chain.probabilities().sum(), WithinAbs(1.0, 1e-13));
    CHECK_THAT(out.p_loss + out.p_obsolete + out.p_served, WithinAbs(1.0, 1e-12));
    // The tagged-page chain is built apart from the stationary one: the fates must agree, and
    // Little's law must tie the mean sojourn to the mean number in the system.
    const BruteForceSojourn sojourn(m, chain);
    CHECK_THAT(sojourn.probability(Fate::kAccepted), WithinAbs(1 - out.p_loss, 1e-12));
    CHECK_THAT(sojourn.probability(Fate::kServed), WithinAbs(out.p_served, 1e-12));
    CHECK_THAT(sojourn.probability(Fate::kObsolete), WithinAbs(out.p_obsolete, 1e-12));
    const double accepted_rate = out.lambda * (1 - out.p_loss);
    CHECK_THAT(accepted_rate * sojourn.mean(Fate::kAccepted), WithinRel(out.mean_in_system, 1e-11));
    const double served_mean = sojourn.mean(Fate::kServed);
    double previous = 0;
    for (double x : {0.5 * served_mean, served_mean, 3 * served_mean}) {
      const double cdf = sojourn.cdf(Fate::kServed, x);
      CHECK(cdf >= previous);
      CHECK(cdf <= 1.0 + 1e-12);
      previous = cdf;
    }
    CHECK_THAT(sojourn.cdf(Fate::kAccepted, 200 * sojourn.mean(Fate::kAccepted)),
               WithinAbs(1.0, 1e-9));
  }
}

}  // namespace
}  // namespace crawlq::crosscheck
