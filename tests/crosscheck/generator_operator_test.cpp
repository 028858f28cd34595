// The matrix-free generator (analytic/generator_operator.hpp) entry by entry: x Q from the factors
// equals x times the brute force's generator, written state by state from the model's rules, and
// x times the Lemma's assembled blocks at capacities where the clock recursion leaves its flat case.
#include <catch2/catch.hpp>
#include <random>

#include "analytic/generator_blocks.hpp"
#include "analytic/generator_operator.hpp"
#include "scenarios/scenario_loader.hpp"
#include "tests/crosscheck/brute_force_chain.hpp"
#include "tests/crosscheck/random_models.hpp"

namespace crawlq::crosscheck {
namespace {

Eigen::VectorXd random_vector(Eigen::Index n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Eigen::VectorXd x(n);
  for (double& v : x) v = uniform(engine);
  return x;
}

// Where the engine numbers a brute-force state: with memory the mode in force is part of the
// environment (mode-major).
Eigen::Index engine_state(const analytic::StateSpace& space, const analytic::ControlledArrivals& arrivals,
                          const ChainState& c) {
  return space.index({.level = c.level, .arrival_phase = arrivals.environment_phase(c.robots, c.arrival_phase),
                      .service_phase = c.service_phase,
                      .clock_phases = c.clocks});
}

// Largest |a - b| over the largest |b|: the operator sums in another order than a matrix product.
double relative_gap(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff());
}

TEST_CASE("generator operator: x Q equals the brute force's dense generator, for every policy form",
          "[crosscheck]") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const model::Model model = random_model(seed, {.single_arrivals = seed % 5 == 0});
    // Hysteresis is left to the stationary crosscheck: its rule re-decides at every event, the
    // engine's memory table at changes of level only, which differ in states the chain never
    // reaches (a mode that is neither high nor low) but not in the stationary law.
    const auto form = static_cast<PolicyForm>(seed % 3);
    const model::ControlPolicy policy = random_control_policy(model, seed, form);
    INFO("seed " << seed << ", policy " << model::policy_kind(policy) << "\n" << describe(model));
    const BruteForceChain chain(model, policy);
    const analytic::ControlledArrivals arrivals(model, policy);
    const analytic::GeneratorOperator q(model, arrivals);
    const analytic::StateSpace& space = q.space();
    REQUIRE(space.size() == chain.size());
    // Brute-force order to engine order, and back.
    std::vector<Eigen::Index> engine_index(chain.size());
    for (Eigen::Index s = 0; s < chain.size(); ++s) engine_index[s] = engine_state(space, arrivals, chain.states()[s]);
    const Eigen::VectorXd x_brute = random_vector(chain.size(), seed);
    Eigen::VectorXd x_engine(chain.size());
    for (Eigen::Index s = 0; s < chain.size(); ++s) x_engine(engine_index[s]) = x_brute(s);
    const Eigen::VectorXd y_brute = (x_brute.transpose() * chain.generator()).transpose();
    const Eigen::VectorXd y_engine = q.apply(x_engine);
    Eigen::VectorXd y_engine_in_brute_order(chain.size());
    for (Eigen::Index s = 0; s < chain.size(); ++s) y_engine_in_brute_order(s) = y_engine(engine_index[s]);
    CHECK(relative_gap(y_engine_in_brute_order, y_brute) < 1e-13);
    // The diagonal is the states' total outflow, as the brute force wrote it.
    double worst = 0;
    for (Eigen::Index s = 0; s < chain.size(); ++s)
      worst = std::max(worst, std::abs(q.diagonal()(engine_index[s]) - chain.generator()(s, s)));
    CHECK(worst < 1e-12 * chain.generator().diagonal().cwiseAbs().maxCoeff());
  }
}

TEST_CASE("generator operator: equals the assembled blocks past the flat clock case, for any thread count",
          "[crosscheck]") {
  const auto scenario = scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml");
  for (const std::string admission : {"partial", "whole"}) {
    model::Model m = scenario.model;
    // 11 waiting clocks: the recursion splits on the head clock three times, and the top levels'
    // blocks are split into pieces by their first clocks (split_clocks).
    m.capacity = 12;
    if (admission == "whole") m.admission = model::Admission::kRejectBatch;
    for (const model::ControlPolicy& policy : std::vector<model::ControlPolicy>{
             model::Policy::from_levels({4, 4, 3, 1, 2, 1, 4, 1, 1, 3, 1, 2, 1}, 4, 12),
             model::make_phase_aware({{4, 1}, {4, 1}, {3, 3}, {1, 2}, {2, 2}, {1, 4}, {4, 4}, {1, 1}, {1, 3}, {3, 3}, {1, 1}, {2, 1}, {1, 1}},
                                     4, 12, 2, "policy"),
             model::make_hysteresis(4, 1, 9, 3, 4, 12, "policy")}) {
    INFO("admission " << admission << ", policy " << model::policy_kind(policy));
    const analytic::GeneratorBlocks blocks(m, policy);
    const analytic::GeneratorOperator q(m, blocks.arrivals());
    const Eigen::VectorXd x = random_vector(q.space().size(), 7);
    const Eigen::VectorXd assembled = (x.transpose() * blocks.assemble()).transpose();
    const Eigen::VectorXd one_thread = q.apply(x, 1);
    CHECK(relative_gap(one_thread, assembled) < 1e-13);
    for (int threads : {2, 3, 8}) {
      INFO(threads << " threads");
      CHECK((q.apply(x, threads).array() == one_thread.array()).all());
    }
    }
  }
}

TEST_CASE("generator operator: a long buffer of small levels, blocks side by side, for any thread count",
          "[crosscheck]") {
  model::Model m = scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  m.obsolescence = model::PhaseType(model::RowVector::Ones(1), model::Matrix::Constant(1, 1, -0.2));
  m.capacity = 3000;  // 4 states a level: levels in turn would cost a barrier each
  const analytic::GeneratorBlocks blocks(m, model::Policy::from_thresholds({-1, 2, 40}, 4, m.capacity));
  const analytic::GeneratorOperator q(m, blocks.arrivals());
  const Eigen::VectorXd x = random_vector(q.space().size(), 13);
  const Eigen::VectorXd assembled = (x.transpose() * blocks.assemble()).transpose();
  const Eigen::VectorXd one_thread = q.apply(x, 1);
  CHECK(relative_gap(one_thread, assembled) < 1e-13);
  CHECK((q.apply(x, 2).array() == one_thread.array()).all());
}

TEST_CASE("generator operator: the forward sweep solves the levels' lower triangle of Q^T, for any thread count",
          "[crosscheck]") {
  // (D + L) z = r, where (Q^T)_ji enters L when state i lies on a lower level than j: the moves up.
  model::Model m = scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  m.capacity = 13;  // the top levels split into pieces
  const analytic::GeneratorBlocks blocks(m, model::Policy::from_levels({4, 4, 3, 1, 2, 1, 4, 1, 1, 3, 1, 2, 1, 2}, 4, 13));
  const analytic::GeneratorOperator q(m, blocks.arrivals());
  const analytic::StateSpace& space = q.space();
  const Eigen::VectorXd r = random_vector(space.size(), 17);
  const Eigen::Index pinned = 1;
  Eigen::VectorXd z(space.size());
  q.forward_sweep(r.data(), z.data(), pinned, 1.0, 1);
  const auto assembled = blocks.assemble();
  std::vector<int> level_of(static_cast<std::size_t>(space.size()));
  for (int level = 0; level <= m.capacity; ++level)
    for (Eigen::Index i = space.level_offset(level); i < space.level_offset(level) + space.level_size(level); ++i)
      level_of[static_cast<std::size_t>(i)] = level;
  Eigen::VectorXd lower_times_z = Eigen::VectorXd::Zero(space.size());  // (D + L) z
  for (Eigen::Index i = 0; i < assembled.outerSize(); ++i)
    for (analytic::SparseMatrix::InnerIterator it(assembled, i); it; ++it)
      if (it.col() == i || level_of[static_cast<std::size_t>(i)] < level_of[static_cast<std::size_t>(it.col())])
        lower_times_z(it.col()) += it.value() * z(i);
  lower_times_z(pinned) = z(pinned);
  CHECK(relative_gap(lower_times_z, r) < 1e-12);
  Eigen::VectorXd shared(space.size());
  q.forward_sweep(r.data(), shared.data(), pinned, 1.0, 2);
  CHECK((shared.array() == z.array()).all());
}

TEST_CASE("generator operator: a three-phase clock, pieces split by their first clocks", "[crosscheck]") {
  model::Model m = scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  Eigen::MatrixXd clock(3, 3);
  clock << -1.0, 0.5, 0.25, 0.125, -0.5, 0.25, 0.2, 0.1, -0.6;
  m.obsolescence = model::PhaseType(model::RowVector(Eigen::RowVector3d(0.5, 0.3, 0.2)), clock);
  m.capacity = 9;  // 3^8 clocks at the top level: pieces of 3^6 states
  const analytic::GeneratorBlocks blocks(m, model::Policy::from_levels({4, 4, 3, 1, 2, 1, 4, 1, 1, 3}, 4, 9));
  const analytic::GeneratorOperator q(m, blocks.arrivals());
  const Eigen::VectorXd x = random_vector(q.space().size(), 11);
  const Eigen::VectorXd assembled = (x.transpose() * blocks.assemble()).transpose();
  const Eigen::VectorXd one_thread = q.apply(x, 1);
  CHECK(relative_gap(one_thread, assembled) < 1e-13);
  CHECK((q.apply(x, 2).array() == one_thread.array()).all());
}

TEST_CASE("generator operator: batches whose fresh clocks outnumber a piece's states, for any thread count",
          "[crosscheck]") {
  // Batches of up to 8 pages with a three-phase clock: at the top levels 3^7 and 3^8 fresh clock
  // combinations span several pieces of 3^6 states, so those batches fan out outside the nested sum.
  const model::Model m = scenarios::parse_scenario(R"(
capacity: 9
arrivals:
  kind: poisson
  modes:
    - {rate: 1.5, batch: [0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]}
    - {rate: 0.5, batch: [0.2, 0, 0.3, 0, 0, 0, 0.2, 0.3]}
service: {exponential: {mean: 0.5}}
obsolescence: {gamma: [0.5, 0.3, 0.2], Gamma: [[-1, 0.5, 0.25], [0.125, -0.5, 0.25], [0.2, 0.1, -0.6]]}
)", "long-batches").model;
  const analytic::GeneratorBlocks blocks(m, model::Policy::from_levels({2, 2, 1, 1, 2, 1, 2, 1, 1, 1}, 2, 9));
  const analytic::GeneratorOperator q(m, blocks.arrivals());
  const Eigen::VectorXd x = random_vector(q.space().size(), 19);
  const Eigen::VectorXd assembled = (x.transpose() * blocks.assemble()).transpose();
  const Eigen::VectorXd one_thread = q.apply(x, 1);
  CHECK(relative_gap(one_thread, assembled) < 1e-13);
  CHECK((q.apply(x, 2).array() == one_thread.array()).all());
}

}  // namespace
}  // namespace crawlq::crosscheck
