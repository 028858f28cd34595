// Optimal control over full-state policies (analytic/control/markov_control.hpp) against references
// that share nothing with it: every deterministic policy enumerated and solved by the brute force,
// and relative value iteration on the brute force's dense generators; and the properties an optimum
// must have (no action improves any state's Bellman equation; no policy of a smaller class does
// better).
#include "analytic/control/markov_control.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "analytic/control/markov_search.hpp"
#include "analytic/control/policy_evaluation.hpp"
#include "analytic/control/policy_search.hpp"
#include "model/admission.hpp"
#include "tests/crosscheck/brute_force_chain.hpp"
#include "tests/crosscheck/random_models.hpp"

namespace crawlq::crosscheck {
namespace {

// The random model with the sojourn weight 0: (2) is then a long-run average of cost rates.
model::Model rate_model(std::uint64_t seed, long max_states) {
  model::Model m = random_model(
      seed, {.single_arrivals = false, .max_states = max_states, .holding_cost = true});
  m.costs.sojourn = 0;
  m.policy.reset();
  return m;
}

double brute_cost(const model::Model& m, const std::vector<int>& robots) {
  const BruteForceChain chain(
      m, model::make_table(robots, m.capacity, m.arrivals.phases(), m.service.phases(),
                           m.obsolescence ? m.obsolescence->phases() : 1, m.modes(), "t", "t"));
  return brute_force_cost(m.costs, chain.measures(), 0.0);
}

// Every robots vector over `states` states with values 1..modes, as an odometer.
bool next_policy(std::vector<int>& robots, int modes) {
  for (int& r : robots) {
    if (r < modes) {
      ++r;
      return true;
    }
    r = 1;
  }
  return false;
}

TEST_CASE("markov control: policy iteration finds the cheapest of every deterministic policy",
          "[crosscheck][markov]") {
  int compared = 0;
  for (std::uint64_t seed = 1; compared < 12 && seed < 400; ++seed) {
    const model::Model m = rate_model(seed, 12);
    const long states = chain_size(m);
    if (m.modes() < 2 || std::pow(m.modes(), states) > 5000) continue;
    INFO("seed " << seed << "\n" << describe(m));
    std::vector<int> robots(static_cast<std::size_t>(states), 1);
    double cheapest = std::numeric_limits<double>::infinity();
    do cheapest = std::min(cheapest, brute_cost(m, robots));
    while (next_policy(robots, m.modes()));
    const analytic::FullStateChain chain(m);
    const analytic::MarkovOptimum optimum = analytic::optimize_markov(
        chain, std::vector<int>(static_cast<std::size_t>(states), m.modes()));
    REQUIRE(optimum.converged);
    CHECK(optimum.gain == Approx(cheapest).epsilon(1e-9));
    CHECK(brute_cost(m, optimum.robots) == Approx(cheapest).epsilon(1e-9));
    CHECK(optimum.lower_bound <= cheapest * (1 + 1e-9) + 1e-12);
    CHECK(optimum.lower_bound >= cheapest * (1 - 1e-9) - 1e-12);
    ++compared;
  }
  CHECK(compared == 12);
}

// Relative value iteration after uniformisation, on generators and cost rates written from the
// brute force's states: h <- min_r (c_r + h + Q_r h / Lambda) - (same at state 0), gain Lambda
// times the offset.
double value_iteration_gain(const model::Model& m) {
  std::vector<Eigen::MatrixXd> q;
  std::vector<Eigen::VectorXd> c;
  for (int r = 1; r <= m.modes(); ++r) {
    const BruteForceChain chain(m, model::Policy::constant(r, m.modes(), m.capacity));
    q.push_back(chain.generator());
    Eigen::VectorXd rate(chain.size());
    for (Eigen::Index x = 0; x < chain.size(); ++x) {
      const ChainState& s = chain.states()[x];
      double lost = 0, expired = 0;
      const model::Bmap& bmap = m.arrivals.mode(r);
      for (int k = 1; k <= bmap.max_batch(); ++k)
        lost += (k - model::accepted_pages(m.admission, s.level, m.capacity, k)) *
                bmap.d(k).row(s.arrival_phase).sum();
      for (const int clock : s.clocks) expired += chain.laws().clock_exit(clock);
      rate(x) = m.costs.loss * lost + m.costs.obsolescence * expired + m.costs.robot * r +
                (s.level == 0 ? m.costs.starvation : 0.0) + m.costs.holding * s.level;
    }
    c.push_back(rate);
  }
  double uniform = 0;
  for (const auto& g : q) uniform = std::max(uniform, g.diagonal().cwiseAbs().maxCoeff());
  uniform *= 1.05;  // aperiodic
  Eigen::VectorXd h = Eigen::VectorXd::Zero(q[0].rows());
  double gain = 0;
  for (int iteration = 0; iteration < 200000; ++iteration) {
    Eigen::VectorXd next = c[0] / uniform + h + q[0] * h / uniform;
    for (std::size_t r = 1; r < q.size(); ++r)
      next = next.cwiseMin(c[r] / uniform + h + q[r] * h / uniform);
    const Eigen::VectorXd step = next - h;
    gain = uniform * step(0);
    if (uniform * (step.maxCoeff() - step.minCoeff()) < 1e-11 * std::max(1.0, std::abs(gain)))
      break;
    h = next.array() - next(0);
  }
  return gain;
}

TEST_CASE("markov control: policy iteration agrees with relative value iteration",
          "[crosscheck][markov]") {
  for (std::uint64_t seed = 11; seed <= 30; ++seed) {
    const model::Model m = rate_model(seed, 300);
    INFO("seed " << seed << "\n" << describe(m));
    const analytic::FullStateChain chain(m);
    const analytic::MarkovOptimum optimum = analytic::optimize_markov(
        chain, std::vector<int>(static_cast<std::size_t>(chain.size()), 1));
    REQUIRE(optimum.converged);
    CHECK(optimum.gain == Approx(value_iteration_gain(m)).epsilon(1e-8));
  }
}

TEST_CASE(
    "markov control: at the optimum no action improves any state, and no smaller class does better",
    "[crosscheck][markov]") {
  for (std::uint64_t seed = 41; seed <= 60; ++seed) {
    const model::Model m = rate_model(seed, 400);
    INFO("seed " << seed << "\n" << describe(m));
    const analytic::PolicyEvaluator evaluator(m);
    const analytic::FullStateChain& chain = evaluator.full_state_chain();
    const analytic::MarkovOptimum optimum = analytic::optimize_markov(
        chain, std::vector<int>(static_cast<std::size_t>(chain.size()), 1));
    REQUIRE(optimum.converged);
    const analytic::PolicyValue value = analytic::evaluate_markov(chain, optimum.robots);
    REQUIRE(value.solved);
    const auto values = analytic::bellman_values(chain, value.bias);
    const double tolerance = 1e-9 * std::max(1.0, std::abs(value.gain));
    for (Eigen::Index x = 0; x < chain.size(); ++x) {
      const double chosen = values[optimum.robots[x] - 1](x);
      CHECK(std::abs(chosen - value.gain) <= tolerance);
      for (const auto& v : values) CHECK(v(x) >= chosen - tolerance);
    }
    // Every form of smaller class, exactly evaluated, costs at least the optimum.
    const double floor = optimum.gain - tolerance;
    CHECK(analytic::optimize_thresholds(evaluator, 1).best.cost >= floor);
    for (const auto form : {PolicyForm::kLevels, PolicyForm::kPhaseAware, PolicyForm::kMemory,
                            PolicyForm::kHysteresis}) {
      const model::ControlPolicy policy = random_control_policy(m, seed, form);
      INFO("policy " << model::policy_kind(policy));
      CHECK(evaluator.evaluate(policy).measures.cost >= floor);
    }
  }
}

TEST_CASE(
    "markov control: past the direct solve, BiCGSTAB on 1 and 3 threads gives the same bits and solves the Bellman equation",
    "[crosscheck][markov]") {
  // A chain too large for solve_sparse's LU (3,000 states), small enough to stay quick.
  RandomModelOptions options = split_models();
  options.max_states = 9000;
  options.holding_cost = true;
  const auto large = [&](std::uint64_t seed) {
    model::Model m = random_model(seed, options);
    m.costs.sojourn = 0;
    m.policy.reset();
    return m;
  };
  std::uint64_t seed = 500;
  model::Model m = large(seed);
  while (m.modes() < 2 || chain_size(m) <= 3000) m = large(++seed);
  INFO("seed " << seed << "\n" << describe(m));
  const analytic::FullStateChain chain(m);
  const std::vector<int> start(static_cast<std::size_t>(chain.size()), 1);
  const auto on_threads = [&](int threads) {
    analytic::MarkovControlOptions options;
    options.threads = threads;
    return analytic::optimize_markov(chain, start, options);
  };
  const analytic::MarkovOptimum one = on_threads(1), three = on_threads(3);
  REQUIRE(one.converged);
  REQUIRE(three.converged);
  CHECK(one.gains == three.gains);
  CHECK(one.robots == three.robots);

  const analytic::PolicyValue value =
      analytic::evaluate_markov(chain, one.robots, 0, nullptr, nullptr, 3);
  REQUIRE(value.solved);
  const auto values = analytic::bellman_values(chain, value.bias);
  const double tolerance = 1e-9 * std::max(1.0, std::abs(value.gain));
  int worse = 0;
  for (Eigen::Index x = 0; x < chain.size(); ++x)
    worse += std::abs(values[one.robots[x] - 1](x) - value.gain) > tolerance;
  CHECK(worse == 0);

  const auto solved = [&](int threads) {
    return chain.stationary(one.robots, nullptr, nullptr, threads);
  };
  const analytic::StationaryResult p1 = solved(1), p3 = solved(3);
  REQUIRE(p1.summary.status == analytic::SolverStatus::kConverged);
  CHECK(p1.summary.method == analytic::Method::kIterative);
  CHECK(p1.summary.residual < 1e-12);
  CHECK(p1.probabilities == p3.probabilities);
}

TEST_CASE(
    "markov search: with a sojourn weight the best candidate lies between the lower bound and the threshold optimum",
    "[crosscheck][markov]") {
  for (std::uint64_t seed = 71; seed <= 78; ++seed) {
    model::Model m =
        random_model(seed, {.single_arrivals = false, .max_states = 300, .holding_cost = true});
    m.costs.sojourn = 2.5;
    m.policy.reset();
    INFO("seed " << seed << "\n" << describe(m));
    const analytic::PolicyEvaluator evaluator(m);
    const analytic::MarkovSearch search = analytic::optimize_markov_policies(
        evaluator, analytic::MarkovSearchOptions{
                       .threads = 1, .search = analytic::Search::kAuto, .progress = nullptr});
    REQUIRE(search.best);
    CHECK_FALSE(search.global);
    CHECK(search.best->measures.cost <= search.threshold_best.cost * (1 + 1e-12));
    CHECK(search.lower_bound <= search.best->measures.cost);
    // The best is a table the brute force evaluates to the same cost (2).
    const auto& table = std::get<model::TablePolicy>(search.best->policy);
    const BruteForceChain chain(m, table);
    CHECK(chain.measures().p_loss == Approx(search.best->measures.p_loss).epsilon(1e-9));
  }
}

}  // namespace
}  // namespace crawlq::crosscheck
