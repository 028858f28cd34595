// Transient analysis (analytic/transient/) against dense matrix exponentials of the brute-force
// chain (brute_force_chain.hpp), on small random models of every policy form, from the empty and
// the full system, with and without an outage of the indexer: p(t), its measures and the counts
// accumulated over [0, t] (the integral of p from the exponential of [[Q, I], [0, 0]]).
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <unsupported/Eigen/MatrixFunctions>
#include <variant>
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/stationary/clock_lumping.hpp"
#include "analytic/stationary/controlled_arrivals.hpp"
#include "analytic/transient/poisson_window.hpp"
#include "analytic/transient/transient_analysis.hpp"
#include "analytic/transient/transient_chain.hpp"
#include "scenarios/scenario_loader.hpp"
#include "tests/crosscheck/brute_force_chain.hpp"
#include "tests/crosscheck/expm_checks.hpp"
#include "tests/crosscheck/operator_checks.hpp"
#include "tests/crosscheck/random_models.hpp"
#include "tests/crosscheck/shipped_scenarios.hpp"

namespace crawlq::crosscheck {
namespace {

// The engine's place of each brute-force state (a table's chain has no mode variable: the
// constant policy's arrivals number it).
std::vector<Eigen::Index> numbering(const model::Model& model, const model::ControlPolicy& policy,
                                    const BruteForceChain& brute,
                                    const analytic::TransientChain& chain) {
  const model::ControlPolicy numbered =
      std::holds_alternative<model::TablePolicy>(policy)
          ? model::ControlPolicy(model::Policy::constant(1, model.modes(), model.capacity))
          : policy;
  return engine_numbering(brute, chain.space(), analytic::ControlledArrivals(model, numbered));
}

// The brute force of the model and of its outage (the service clock paused, all else running),
// with the engine's place of each brute-force state. It holds the outage's model, which the chain
// reads by reference: it stays where it is made.
struct BruteForcePair {
  BruteForcePair(const model::Model& model, const model::ControlPolicy& policy,
                 const analytic::TransientChain& chain)
      : paused_model(paused_service(model)),
        serving(model, policy, false),
        paused(paused_model, policy, false),
        at(numbering(model, policy, serving, chain)) {}
  BruteForcePair(const BruteForcePair&) = delete;
  BruteForcePair& operator=(const BruteForcePair&) = delete;

  // An engine's vector in the brute force's order.
  Eigen::RowVectorXd in_brute_order(const Eigen::VectorXd& engine) const {
    Eigen::RowVectorXd out(serving.size());
    for (Eigen::Index s = 0; s < out.size(); ++s) out(s) = engine(at[static_cast<std::size_t>(s)]);
    return out;
  }

  static model::Model paused_service(const model::Model& model) {
    model::Model paused = model;
    paused.service = model.service.paused();
    return paused;
  }

  model::Model paused_model;
  BruteForceChain serving, paused;
  std::vector<Eigen::Index> at;
};

struct Case {
  bool full = false;
  double outage = 0;
  analytic::TransientMethod method = analytic::TransientMethod::kAuto;  // of the drain
  // The engine on the chain with the clock lumped (analytic/stationary/clock_lumping.hpp), the
  // brute force on the chain with every clock phase.
  bool lumped = false;
};

void compare(const model::Model& model, const model::ControlPolicy& policy, const Case& c) {
  const analytic::TransientChain chain(model, policy);
  const Eigen::VectorXd start = c.full ? chain.full_start() : chain.empty_start();
  const model::Model engine_model =
      c.lumped ? analytic::lumped_clock_model(model, policy).value() : model;
  const analytic::TransientChain engine_chain(engine_model, policy);
  if (c.lumped) CHECK(engine_chain.size() < chain.size());
  const Eigen::VectorXd engine_start =
      c.full ? engine_chain.full_start() : engine_chain.empty_start();
  const std::vector<double> times{0.0, 0.35, 1.3, 2.9};
  // Each method, forced: the small chains here would take uniformisation under `auto`.
  std::vector<analytic::TransientResult> engines;
  for (const analytic::TransientMethod method :
       {analytic::TransientMethod::kUniformisation, analytic::TransientMethod::kKrylov}) {
    engines.push_back(analytic::transient_analysis(
        engine_model, policy, engine_start,
        {.times = times, .outage = c.outage, .tolerance = 1e-13, .method = method}));
    REQUIRE(engines.back().points.size() == times.size());
    CHECK(engines.back().method == method);
    CHECK(engines.back().truncation_error <= 1e-12);
  }

  const BruteForcePair brute(model, policy, chain);
  const BruteForceChain &serving = brute.serving, &paused = brute.paused;
  const Eigen::Index n = serving.size();
  REQUIRE(n == chain.size());
  Eigen::RowVectorXd p = brute.in_brute_order(start);
  Eigen::RowVectorXd during = Eigen::RowVectorXd::Zero(n), after = during;
  double now = 0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const double t = times[i];
    while (now < t) {
      const bool out = now < c.outage;
      const double end = out ? std::min(t, c.outage) : t;
      const Propagation step = propagate(out ? paused.generator() : serving.generator(), end - now);
      (out ? during : after) += p * step.area;
      p = p * step.at_end;
      now = end;
    }
    const ChainMeasures now_brute = (t < c.outage ? paused : serving).measures_of(p.transpose());
    double offered = 0, lost = 0, obsolete = 0, served = 0, robots = 0, empty = 0, pages = 0;
    for (const auto& [chain_of, area] : {std::pair{&paused, during.transpose().eval()},
                                         std::pair{&serving, after.transpose().eval()}}) {
      if (area.sum() == 0) continue;
      const ChainMeasures m = chain_of->measures_of(area);
      offered += m.lambda;
      lost += m.lambda * m.p_loss;
      obsolete += m.lambda * m.p_obsolete;
      served += m.lambda * m.p_served;
      robots += m.mean_active_robots;
      empty += m.p_starvation;
      pages += m.mean_in_system;
    }
    for (const analytic::TransientResult& engine : engines) {
      const analytic::TransientPoint& e = engine.points[i];
      INFO("t = " << t << (c.full ? ", from full" : ", from empty") << ", outage " << c.outage
                  << ", " << analytic::kTransientMethodNames.name(engine.method));
      // p(t) itself is not in the result: its level distribution and measures are, and the counts
      // check the whole path.
      for (std::size_t level = 0; level < now_brute.level_probabilities.size(); ++level)
        check_close("P(level " + std::to_string(level) + ")", e.level_probabilities[level],
                    now_brute.level_probabilities[level]);
      check_close("mean_in_system", e.mean_in_system, now_brute.mean_in_system);
      check_close("mean_in_queue", e.mean_in_queue, now_brute.mean_in_queue);
      check_close("mean_active_robots", e.mean_active_robots, now_brute.mean_active_robots);
      check_close("offered_rate", e.offered_rate, now_brute.lambda);
      check_close("loss_rate", e.loss_rate, now_brute.lambda * now_brute.p_loss);
      check_close("obsolescence_rate", e.obsolescence_rate,
                  now_brute.lambda * now_brute.p_obsolete);
      check_close("service_rate", e.service_rate, now_brute.lambda * now_brute.p_served);
      check_close("offered", e.offered, offered);
      check_close("lost", e.lost, lost);
      check_close("obsolete", e.obsolete, obsolete);
      check_close("served", e.served, served);
      const model::Costs& k = model.costs;
      check_close("cost_accumulated", e.cost_accumulated,
                  k.loss * lost + k.obsolescence * obsolete + k.robot * robots +
                      k.starvation * empty + k.holding * pages);
    }
  }
}

void compare_random(std::uint64_t first_seed, int count, PolicyForm form) {
  for (std::uint64_t seed = first_seed; seed < first_seed + count; ++seed) {
    const model::Model model = random_model(
        seed, {.single_arrivals = seed % 5 == 0, .max_states = 250, .holding_cost = true});
    const model::ControlPolicy policy = random_control_policy(model, seed, form);
    INFO("seed " << seed << ", policy " << model::policy_kind(policy) << "\n" << describe(model));
    compare(model, policy, {.full = seed % 2 == 0, .outage = seed % 3 == 0 ? 0.0 : 0.8});
  }
}

}  // namespace

TEST_CASE("transients vs matrix exponentials: level maps on random models",
          "[crosscheck][transient]") {
  compare_random(701, 12, PolicyForm::kLevels);
}

TEST_CASE("transients vs matrix exponentials: phase-aware, memory and hysteresis policies",
          "[crosscheck][transient][heavy]") {
  compare_random(801, 8, PolicyForm::kPhaseAware);
  compare_random(811, 8, PolicyForm::kMemory);
  compare_random(821, 6, PolicyForm::kHysteresis);
}

TEST_CASE("transients vs matrix exponentials: a clock whose phases exit at one rate, lumped",
          "[crosscheck][transient][lumping]") {
  for (std::uint64_t seed = 901; seed < 916; ++seed) {
    const model::Model model = random_lumpable_model(seed, 250);
    const model::ControlPolicy policy =
        random_control_policy(model, seed, seed % 2 ? PolicyForm::kLevels : PolicyForm::kMemory);
    INFO("seed " << seed << ", policy " << model::policy_kind(policy) << "\n" << describe(model));
    compare(model, policy,
            {.full = seed % 2 == 0, .outage = seed % 3 == 0 ? 0.0 : 0.8, .lumped = true});
  }
}

TEST_CASE("transients vs matrix exponentials: full-state tables", "[crosscheck][transient]") {
  compare_random(901, 8, PolicyForm::kTable);
}

TEST_CASE("transients: the empty and the full start, written from their definitions",
          "[crosscheck][transient]") {
  // A level map: the arrival phase in theta of the mode at that level; the page in service in
  // beta, each waiting page's clock in gamma.
  for (std::uint64_t seed = 971; seed < 981; ++seed) {
    const model::Model model = random_model(seed, {.max_states = 250});
    const model::ControlPolicy policy = *model.policy;
    const auto& levels = std::get<model::Policy>(policy);
    INFO("seed " << seed << "\n" << describe(model));
    const analytic::TransientChain chain(model, policy);
    const BruteForceChain brute(model, policy, false);
    const std::vector<Eigen::Index> at = numbering(model, policy, brute, chain);
    const Eigen::VectorXd empty = chain.empty_start(), full = chain.full_start();
    for (Eigen::Index s = 0; s < brute.size(); ++s) {
      const ChainState& state = brute.states()[static_cast<std::size_t>(s)];
      const auto engine = at[static_cast<std::size_t>(s)];
      const double theta_empty =
          model.arrivals.mode(levels.robots(0)).stationary()(state.arrival_phase);
      check_close("empty start", empty(engine), state.level == 0 ? theta_empty : 0.0);
      double expected = 0;
      if (state.level == model.capacity) {
        expected =
            model.arrivals.mode(levels.robots(model.capacity)).stationary()(state.arrival_phase) *
            brute.laws().beta(state.service_phase);
        for (const int clock : state.clocks) expected *= brute.laws().gamma(clock);
      }
      check_close("full start", full(engine), expected);
    }
  }
}

TEST_CASE(
    "transients: p(t) tends to the stationary vector and the counts grow at the long-run rate",
    "[crosscheck][transient]") {
  for (std::uint64_t seed = 951; seed < 955; ++seed) {
    const model::Model model = random_model(seed, {.max_states = 250});
    const model::ControlPolicy policy = *model.policy;
    INFO("seed " << seed << "\n" << describe(model));
    const BruteForceChain brute(model, policy);
    const analytic::TransientChain chain(model, policy);
    const analytic::TransientResult long_run = analytic::transient_analysis(
        model, policy, chain.full_start(), {.times = {400.0}, .tolerance = 1e-13});
    for (std::size_t level = 0; level < brute.measures().level_probabilities.size(); ++level)
      check_close("P(level) at t = 400", long_run.points[0].level_probabilities[level],
                  brute.measures().level_probabilities[level]);
    // Counts grow at the long-run rates once there: over [200, 400] as lambda times 200.
    const analytic::TransientResult two = analytic::transient_analysis(
        model, policy, chain.full_start(), {.times = {200.0, 400.0}, .tolerance = 1e-13});
    CHECK_THAT(two.points[1].offered - two.points[0].offered,
               Catch::Matchers::WithinRel(brute.measures().lambda * 200, 1e-8));
  }
}

// The drain time to `level`: its distribution function from the exponential of Q with the rows of
// the levels 0..level zeroed (they hold what reaches them), its mean from p_T (-Q_TT)^{-1} e, both
// on the brute force (after the outage, from the state the outage leaves).
void compare_drain(const model::Model& model, const model::ControlPolicy& policy, int level,
                   const Case& c) {
  const analytic::TransientChain chain(model, policy);
  const Eigen::VectorXd start = c.full ? chain.full_start() : chain.empty_start();
  const std::vector<double> times{0.4, 1.5, 6.0};
  const analytic::DrainResult engine = analytic::drain_analysis(
      model, policy, start, level,
      {.times = times, .outage = c.outage, .tolerance = 1e-13, .method = c.method});
  const BruteForcePair brute(model, policy, chain);
  const BruteForceChain &serving = brute.serving, &paused = brute.paused;
  const Eigen::Index n = serving.size();
  std::vector<bool> drained(static_cast<std::size_t>(n));
  for (Eigen::Index s = 0; s < n; ++s)
    drained[static_cast<std::size_t>(s)] =
        serving.states()[static_cast<std::size_t>(s)].level <= level;
  const auto absorbing = [&](const Eigen::MatrixXd& q) {
    Eigen::MatrixXd a = q;
    for (Eigen::Index s = 0; s < n; ++s)
      if (drained[static_cast<std::size_t>(s)]) a.row(s).setZero();
    return a;
  };
  const Eigen::RowVectorXd p0 = brute.in_brute_order(start);
  const auto mass_drained = [&](const Eigen::RowVectorXd& p) {
    double sum = 0;
    for (Eigen::Index s = 0; s < n; ++s)
      if (drained[static_cast<std::size_t>(s)]) sum += p(s);
    return sum;
  };
  REQUIRE(engine.cdf.size() == times.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    const double t = times[i];
    const double out = std::min(t, c.outage);
    Eigen::RowVectorXd p = p0;
    if (out > 0) p = p * (absorbing(paused.generator()) * out).exp();
    if (t > out) p = p * (absorbing(serving.generator()) * (t - out)).exp();
    check_close("P(drained by " + std::to_string(t) + ")", engine.cdf[i], mass_drained(p));
  }
  // The mean: the time in T over the outage, then from the state it leaves.
  double mean = 0;
  Eigen::RowVectorXd p = p0;
  if (c.outage > 0) {
    const Propagation step = propagate(absorbing(paused.generator()), c.outage);
    const Eigen::RowVectorXd area = p * step.area;
    for (Eigen::Index s = 0; s < n; ++s)
      if (!drained[static_cast<std::size_t>(s)]) mean += area(s);
    p = p * step.at_end;
  }
  std::vector<Eigen::Index> up;
  for (Eigen::Index s = 0; s < n; ++s)
    if (!drained[static_cast<std::size_t>(s)]) up.push_back(s);
  const auto m = static_cast<Eigen::Index>(up.size());
  Eigen::MatrixXd q_tt(m, m);
  Eigen::RowVectorXd p_t(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    p_t(i) = p(up[static_cast<std::size_t>(i)]);
    for (Eigen::Index j = 0; j < m; ++j)
      q_tt(i, j) =
          serving.generator()(up[static_cast<std::size_t>(i)], up[static_cast<std::size_t>(j)]);
  }
  if (m > 0) mean += (p_t * (-q_tt).inverse()).sum();
  check_close("mean drain time", engine.mean, mean);
}

TEST_CASE("transients: the time to drain to a level, its law and mean, vs the brute force",
          "[crosscheck][transient][heavy]") {
  const std::array forms{PolicyForm::kLevels, PolicyForm::kPhaseAware, PolicyForm::kMemory,
                         PolicyForm::kTable};
  for (std::uint64_t seed = 1001; seed < 1017; ++seed) {
    const model::Model model = random_model(seed, {.max_states = 250, .capacities = {2, 5}});
    const model::ControlPolicy policy =
        random_control_policy(model, seed, forms[seed % forms.size()]);
    const int level = static_cast<int>(seed % static_cast<std::uint64_t>(model.capacity));
    INFO("seed " << seed << ", drain to " << level << ", policy " << model::policy_kind(policy)
                 << "\n"
                 << describe(model));
    compare_drain(model, policy, level,
                  {.full = seed % 3 != 1,
                   .outage = seed % 2 ? 0.0 : 0.7,
                   .method = seed % 4 < 2 ? analytic::TransientMethod::kKrylov
                                          : analytic::TransientMethod::kUniformisation});
  }
}

TEST_CASE(
    "transients: a bound on the products refuses uniformisation before it runs and stops Krylov "
    "steps where they pass it",
    "[crosscheck][transient]") {
  // A chain of more states than 20 products can explore (a smaller one is spanned exactly).
  std::uint64_t seed = 77;
  while (analytic::chain_space(random_model(seed, {.max_states = 250}),
                               random_control_policy(random_model(seed, {.max_states = 250}), seed,
                                                     PolicyForm::kLevels))
             .size() < 150)
    ++seed;
  const model::Model model = random_model(seed, {.max_states = 250});
  const model::ControlPolicy policy = random_control_policy(model, seed, PolicyForm::kLevels);
  const analytic::TransientChain chain(model, policy);
  INFO("seed " << seed << ", " << chain.size() << " states");
  for (const analytic::TransientMethod method :
       {analytic::TransientMethod::kUniformisation, analytic::TransientMethod::kKrylov}) {
    INFO(analytic::kTransientMethodNames.name(method));
    try {
      analytic::transient_analysis(
          model, policy, chain.empty_start(),
          {.times = {1.0, 4e4}, .tolerance = 1e-13, .most_products = 20, .method = method});
      FAIL("20 products reached t = 40000");
    } catch (const analytic::TooMuchTransientWork& work) {
      CHECK(work.allowed == 20);
      CHECK(work.needed > 20);
    }
  }
  // Within the bound the answer comes.
  const analytic::TransientResult within = analytic::transient_analysis(
      model, policy, chain.empty_start(),
      {.times = {1.0, 4e4}, .most_products = 1e5, .method = analytic::TransientMethod::kKrylov});
  CHECK(within.products <= 100000);
}

TEST_CASE("transients: the Poisson window's weights sum to one less what it reports left out",
          "[transient]") {
  for (const double mean : {0.0, 1e-3, 0.7, 12.0, 480.0, 9000.0}) {
    INFO("mean " << mean);
    const analytic::PoissonWindow w = analytic::poisson_window(mean, 1e-13);
    double sum = 0, beyond = 0;
    for (std::size_t n = 0; n <= w.last(); ++n) {
      sum += w.weight_at(n);
      beyond += w.beyond_at(n);
    }
    CHECK(w.omitted_weight <= 1e-13);
    CHECK_THAT(sum + w.omitted_weight, Catch::Matchers::WithinAbs(1.0, 1e-12));
    // sum_n P(N > n) = E[N] = mean.
    CHECK_THAT(beyond + w.omitted_beyond,
               Catch::Matchers::WithinRel(mean, 1e-10) || Catch::Matchers::WithinAbs(mean, 1e-12));
  }
}

}  // namespace crawlq::crosscheck

namespace crawlq::crosscheck {

TEST_CASE("transients: a chain split into blocks, the same bits on one thread and on two",
          "[crosscheck][transient]") {
  // The paper's first example at K = 17 (524,286 states): the top level's rows are cut into
  // blocks, and the products and the sums run on threads.
  const auto shipped = shipped_queue_scenarios();
  const auto paper = std::find_if(shipped.begin(), shipped.end(), [](const ShippedScenario& s) {
    return s.name == "paper-example-1";
  });
  REQUIRE(paper != shipped.end());
  model::Model model = scenarios::load_scenario(paper->path).model;
  model.capacity = 17;
  // A clock whose phases leave at different rates (the paper's leave alike: a block's expiry rates
  // would not show which clocks they belong to), and robots that vary with the level.
  model.obsolescence =
      model::PhaseType(model::RowVector{{0.3, 0.7}}, model::Matrix{{-0.9, 0.4}, {0.1, -0.3}});
  std::vector<int> levels;
  for (int i = 0; i <= model.capacity; ++i) levels.push_back(1 + (3 * i + 1) % model.modes());
  const model::ControlPolicy policy =
      model::Policy::from_levels(levels, model.modes(), model.capacity);
  const analytic::TransientChain chain(model, policy);
  // The sums of any nonnegative vector are its measures' (compute_measures, one pass a level).
  Eigen::VectorXd x = Eigen::VectorXd::Random(chain.size()).cwiseAbs();
  const analytic::Measures m = chain.measures(x);
  const analytic::TransientSums sums = chain.sums(x, 2);
  for (std::size_t level = 0; level < sums.levels.size(); ++level)
    check_close("level " + std::to_string(level), sums.levels[level], m.level_probabilities[level]);
  check_close("offered", sums.offered, m.lambda);
  check_close("lost", sums.lost, m.lambda * m.p_loss);
  check_close("obsolete", sums.obsolete, m.lambda * m.p_obsolete);
  check_close("served", sums.served, m.lambda * m.p_served);
  check_close("robots", sums.robots, m.mean_active_robots);
  check_close("in system", sums.in_system, m.mean_in_system);
  // The whole transient: bit for bit on one thread and on two.
  const auto run = [&](int threads) {
    return analytic::transient_analysis(model, policy, chain.empty_start(),
                                        {.times = {0.25, 1}, .outage = 0.5, .threads = threads});
  };
  const analytic::TransientResult one = run(1), two = run(2);
  REQUIRE(one.points.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(one.points[i].level_probabilities == two.points[i].level_probabilities);
    CHECK(one.points[i].lost == two.points[i].lost);
    CHECK(one.points[i].obsolete == two.points[i].obsolete);
    CHECK(one.points[i].cost_accumulated == two.points[i].cost_accumulated);
  }
  CHECK(one.points[1].served > 0);
  // Krylov steps on the same chain: their own sums and updates on threads, the same bits, and the
  // uniformisation's answer to its tolerances.
  const auto krylov = [&](int threads) {
    return analytic::transient_analysis(model, policy, chain.empty_start(),
                                        {.times = {0.25, 1},
                                         .outage = 0.5,
                                         .threads = threads,
                                         .method = analytic::TransientMethod::kKrylov});
  };
  const analytic::TransientResult krylov_one = krylov(1), krylov_two = krylov(2);
  CHECK(krylov_one.method == analytic::TransientMethod::kKrylov);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(krylov_one.points[i].level_probabilities == krylov_two.points[i].level_probabilities);
    CHECK(krylov_one.points[i].lost == krylov_two.points[i].lost);
    for (std::size_t level = 0; level < one.points[i].level_probabilities.size(); ++level)
      check_close("Krylov's level " + std::to_string(level),
                  krylov_one.points[i].level_probabilities[level],
                  one.points[i].level_probabilities[level]);
    check_close("Krylov's lost", krylov_one.points[i].lost, one.points[i].lost);
    check_close("Krylov's cost", krylov_one.points[i].cost_accumulated,
                one.points[i].cost_accumulated);
  }
}

}  // namespace crawlq::crosscheck
