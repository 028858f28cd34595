// The simulator against queues solved on paper, with fixed seeds. Each check allows 4 half-widths
// of the 95% interval (about 7.5 standard errors): far from a false alarm, tight enough for an
// error.
#include "sim/simulator.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>

#include "sim/replications.hpp"
#include "sim/statistics_observer.hpp"
#include "tests/support/birth_death.hpp"

using namespace crawlq;

namespace {

using test_support::birth_death;
using test_support::birth_death_levels;

void check_inside(const sim::Interval& i, double exact, const char* what) {
  INFO(what << ": " << i.mean << " +- " << i.half_width << ", exact " << exact);
  CHECK(std::abs(i.mean - exact) <= 4 * i.half_width);
  CHECK(i.half_width > 0);
}

}  // namespace

TEST_CASE("simulated M/M/1/K and M/M/1/K with impatience match the closed forms", "[sim]") {
  for (const double theta : {0.0, 0.7}) {
    const double lambda = 3.0, mu = 2.0;
    const int k = 5;
    INFO("impatience " << theta);
    const model::Model m = birth_death({lambda}, mu, k, theta);
    const sim::LevelMapPolicy policy(model::Policy::constant(1, 1, k));
    const auto s = sim::simulate(
        m, policy, {.seed = 42, .replications = 10, .warmup = 100, .horizon = 20000, .threads = 2});
    const auto p = birth_death_levels(std::vector<double>(k + 1, lambda), mu, theta);
    double expiry = 0, l = 0;
    for (int i = 1; i <= k; ++i) {
      expiry += p[i] * (i - 1) * theta;
      l += i * p[i];
    }
    check_inside(s.lambda, lambda, "lambda");
    check_inside(s.p_loss, p[k], "p_loss");
    check_inside(s.p_served, (1 - p[0]) * mu / lambda, "p_served");
    check_inside(s.p_starvation, p[0], "p_starvation");
    check_inside(s.mean_sojourn, l / (lambda * (1 - p[k])), "mean_sojourn (Little)");
    for (int i = 0; i <= k; ++i) check_inside(s.level_probabilities[i], p[i], "level");
    if (theta > 0) check_inside(s.p_obsolete, expiry / lambda, "p_obsolete");
  }
}

TEST_CASE("the same seed gives the same numbers with 1 and 2 threads", "[sim][determinism]") {
  const model::Model m = birth_death({2.0}, 1.5, 4, 0.3);
  const sim::LevelMapPolicy policy(model::Policy::constant(1, 1, 4));
  const sim::ReplicationPlan one{
      .seed = 9, .replications = 6, .warmup = 10, .horizon = 2000, .threads = 1};
  sim::ReplicationPlan two = one;
  two.threads = 2;
  const auto a = sim::simulate(m, policy, one), b = sim::simulate(m, policy, two);
  REQUIRE(a.replications.size() == b.replications.size());
  for (std::size_t r = 0; r < a.replications.size(); ++r) {
    CHECK(a.replications[r].cost == b.replications[r].cost);
    CHECK(a.replications[r].p_loss == b.replications[r].p_loss);
    CHECK(a.replications[r].level_probabilities == b.replications[r].level_probabilities);
  }
  CHECK(a.events == b.events);
  // Another seed gives other numbers.
  two.seed = 10;
  CHECK(sim::simulate(m, policy, two).replications[0].p_loss != a.replications[0].p_loss);
}

TEST_CASE("Student intervals: t quantile and half-width", "[sim][statistics]") {
  // Values 1..5: mean 3, sd sqrt(2.5), t_{0.975,4} = 2.7764451.
  const auto i = sim::student_interval({1, 2, 3, 4, 5});
  CHECK(i.mean == Approx(3));
  CHECK(i.half_width == Approx(2.7764451 * std::sqrt(2.5 / 5)).epsilon(1e-7));
}

TEST_CASE("the sequential mode adds replications until the headline half-widths are small",
          "[sim][precision]") {
  const model::Model m = birth_death({2.0}, 1.5, 4, 0.3);
  const sim::LevelMapPolicy policy(model::Policy::constant(1, 1, 4));
  const sim::ReplicationPlan plan{
      .seed = 4, .replications = 10, .warmup = 10, .horizon = 2000, .threads = 2};
  const auto r = sim::simulate_to_precision(m, policy, plan, 0.01, 60);
  REQUIRE(r.precise);
  CHECK(r.summary.replications.size() > 10);
  for (const sim::Interval* i :
       {&r.summary.p_loss, &r.summary.p_served, &r.summary.cost, &r.summary.mean_sojourn_served})
    CHECK(i->half_width <= 0.01 * std::abs(i->mean));
  // Earlier replications are kept: the first ten are those of a plain run with the same seed.
  const auto plain = sim::simulate(m, policy, plan);
  for (int i = 0; i < 10; ++i) CHECK(r.summary.replications[i].cost == plain.replications[i].cost);
  // A time limit too short to reach the precision says so.
  const auto rushed = sim::simulate_to_precision(m, policy, plan, 1e-5, 1e-3);
  CHECK_FALSE(rushed.precise);
}

TEST_CASE("comparing a policy with itself on common random numbers gives exactly zero",
          "[sim][compare]") {
  model::Model m = birth_death({2.0}, 1.5, 4, 0.3);
  m.costs = {.loss = 5, .obsolescence = 10, .sojourn = 2, .robot = 1, .starvation = 30};
  const sim::LevelMapPolicy policy(model::Policy::constant(1, 1, 4));
  const auto c = sim::compare_policies(
      m, policy, policy,
      {.seed = 2, .replications = 5, .warmup = 10, .horizon = 300, .threads = 2});
  for (const auto& measure : model::scalar_measures<sim::Interval>()) {
    INFO(measure.name.key);
    CHECK((c.difference.*measure.field).mean == 0);
    CHECK((c.difference.*measure.field).half_width == 0);
  }
  CHECK(c.independent_cost_half_width > 0);
}

TEST_CASE("a run stops at its event budget and at its deadline, and says so", "[sim][limits]") {
  const model::Model m = birth_death({2.0}, 1.5, 4, 0.3);
  const sim::LevelMapPolicy policy(model::Policy::constant(1, 1, 4));
  const sim::Simulator simulator(m, policy);
  sim::StatisticsObserver statistics(m.capacity, m.modes(), m.costs);
  const auto budget =
      simulator.run(1, 0, 0.0, 1e12, {&statistics}, sim::RunLimits{.max_events = 1000});
  CHECK_FALSE(budget.complete);
  CHECK(budget.events == 1000);
  CHECK(budget.simulated > 0);
  const auto late = simulator.run(1, 0, 0.0, 1e12, {&statistics},
                                  sim::RunLimits{.deadline = std::chrono::steady_clock::now()});
  CHECK_FALSE(late.complete);
  const auto whole = simulator.run(1, 0, 0.0, 100.0, {&statistics});
  CHECK(whole.complete);
  CHECK(whole.simulated == 100.0);
}

TEST_CASE("durations are measured where they happen, exact at any absolute time", "[sim][time]") {
  // Pages 10^6 time units apart, each served in about 10^-6: by the end of the horizon the clock
  // reads 10^12, where a double cannot resolve 10^-6.
  const model::Model m = birth_death({1e-6}, 1e6, 1, 0.0);
  const sim::LevelMapPolicy policy(model::Policy::constant(1, 1, 1));
  const sim::ReplicationPlan plan{
      .seed = 6, .replications = 8, .warmup = 0, .horizon = 2e11, .threads = 2};
  const auto s = sim::simulate(m, policy, plan);
  check_inside(s.mean_sojourn_served, 1e-6, "mean sojourn of served pages");
  CHECK(s.mean_sojourn_served.half_width < 2e-8);
}

TEST_CASE("a measure without spread from too few pages is not taken as settled",
          "[sim][precision]") {
  const model::Model m = birth_death({2.0}, 1.5, 4, 0.3);
  const sim::LevelMapPolicy policy(model::Policy::constant(1, 1, 4));
  // Ten pages a replication: P_loss is often 0 in every one, which says nothing.
  const sim::ReplicationPlan plan{
      .seed = 8, .replications = 4, .warmup = 0, .horizon = 5, .threads = 1};
  const auto r = sim::simulate_to_precision(m, policy, plan, 0.5, 10);
  CHECK(r.summary.fewest_pages < sim::kPagesToTrustNoSpread);
  CHECK_FALSE(r.precise);
}

namespace {

// A statistic added from outside the replication driver: pages lost per unit time, written over
// the standard set's p_loss * lambda (which is the same quantity by another route).
class LossRateEstimator final : public sim::Estimator {
 public:
  void on_interval(double, double length, int, int) override { observed_ += length; }
  void on_batch(double, int batch, int accepted) override { lost_ += batch - accepted; }
  void on_served(double, double) override {}
  void on_expired(double, double) override {}
  void write(sim::ReplicationEstimate& e) const override {
    written_loss_rate = e.p_loss * e.lambda;
    e.p_loss = lost_ / observed_;
  }
  static inline double written_loss_rate = -1;

 private:
  double observed_ = 0, lost_ = 0;
};

}  // namespace

TEST_CASE("replications run the estimators they are given, each writing after the ones before it",
          "[sim][observers]") {
  const model::Model m = birth_death({3.0}, 2.0, 3, 0.2);
  const sim::LevelMapPolicy policy(model::Policy::constant(1, 1, 3));
  sim::ReplicationPlan plan{
      .seed = 5, .replications = 3, .warmup = 10, .horizon = 3000, .threads = 2};
  const auto standard = sim::simulate(m, policy, plan);
  int made = 0;
  plan.estimators = [&made](const model::Model& model) {
    ++made;
    sim::Estimators set = sim::standard_estimators(model);
    set.push_back(std::make_unique<LossRateEstimator>());
    return set;
  };
  const auto extended = sim::simulate(m, policy, plan);
  CHECK(made == 3);
  REQUIRE(extended.replications.size() == standard.replications.size());
  for (std::size_t r = 0; r < standard.replications.size(); ++r) {
    const auto& s = standard.replications[r];
    // The added estimator ran on the same path and replaced p_loss with the loss rate.
    CHECK(extended.replications[r].p_loss == Approx(s.p_loss * s.lambda).epsilon(1e-9));
    CHECK(extended.replications[r].p_served == s.p_served);
  }
  CHECK(LossRateEstimator::written_loss_rate > 0);
}
