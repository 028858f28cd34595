// The matrix-free generator (analytic/stationary/generator_operator.hpp) entry by entry: x Q from
// the factors equals x times the brute force's generator, written state by state from the model's
// rules, and x times the Lemma's assembled blocks at capacities where the clock recursion leaves
// its flat case.
#include "analytic/stationary/generator_operator.hpp"

#include <catch2/catch.hpp>

#include "analytic/stationary/generator_blocks.hpp"
#include "scenarios/scenario_loader.hpp"
#include "tests/crosscheck/brute_force_chain.hpp"
#include "tests/crosscheck/operator_checks.hpp"
#include "tests/crosscheck/random_models.hpp"

namespace crawlq::crosscheck {
namespace {

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
    REQUIRE(q.space().size() == chain.size());
    const BruteForceGaps gaps = gaps_to_brute_force(chain, arrivals, q, seed);
    CHECK(gaps.product < 1e-13);
    CHECK(gaps.diagonal < 1e-12);
  }
}

TEST_CASE("generator operator: a diagonal range read run by run from inside a run",
          "[crosscheck]") {
  // Entry q is (base + high[q / run]) + low[q % run]: runs of 3 entries, read from 4 to 11.
  const std::vector<double> high{-0.5, -1.25, -2.0, -4.5}, low{-0.125, -0.75, -3.0};
  const analytic::GeneratorOperator::DiagonalPiece piece{
      .base = -7.0, .high = high.data(), .low = low.data(), .run = 3};
  std::vector<double> read(12, 0.0);
  int runs = 0;
  piece.for_runs(4, 11,
                 [&](Eigen::Index begin, Eigen::Index end, double constant, const double* first) {
                   ++runs;
                   for (Eigen::Index q = begin; q < end; ++q)
                     read[static_cast<std::size_t>(q)] = constant + first[q - begin];
                 });
  CHECK(runs == 3);  // 4-5, 6-8, 9-10
  for (Eigen::Index q = 0; q < 12; ++q) {
    const auto at = static_cast<std::size_t>(q);
    const double expected =
        q < 4 || q >= 11 ? 0.0 : -7.0 + high[static_cast<std::size_t>(q / 3)] + low[at % 3];
    CHECK(read[at] == expected);
  }
}

TEST_CASE(
    "generator operator: random models past the split equal the assembled blocks, for every policy "
    "form",
    "[crosscheck]") {
  // The brute force's dense generator cannot hold these (up to 20,000 states), so the Lemma's
  // blocks, held against it above, are the reference. Random phases, modes, batches and both
  // admission rules reach the pieces that the paper's fixtures reach with equal exit rates and one
  // phase each. Draws whose top level stays whole (a two-phase clock below 11 places) are passed
  // over, counted: the seeds are fixed, so sixteen split models within 120 seeds is a property of
  // the draws, not luck.
  int split = 0;
  std::uint64_t seed = 0;
  while (split < 16 && seed < 120) {
    const model::Model model = random_model(++seed, split_models());
    // Every form but the full-state table, which has no blocks by level (FullStateChain solves it).
    const auto form = static_cast<PolicyForm>(split % 4);
    const model::ControlPolicy policy = random_control_policy(model, seed, form);
    const analytic::GeneratorBlocks blocks(model, policy);
    const analytic::GeneratorOperator q(model, blocks.arrivals());
    if (most_split_clocks(q) == 0) continue;
    ++split;
    INFO("seed " << seed << ", policy " << model::policy_kind(policy) << "\n" << describe(model));
    const AssembledGaps gaps = gaps_to_assembled(blocks, q, seed);
    CHECK(gaps.product < 1e-13);
    CHECK(gaps.same_for_any_threads);
    const SweepGaps sweep = forward_sweep_gaps(blocks, q, seed + 100);
    CHECK(sweep.residual < 1e-12);
    CHECK(sweep.same_for_any_threads);
    // Pinned a third of the way in, where a warm start may pin it, with a scale of its own.
    const SweepGaps symmetric =
        symmetric_sweep_gaps(blocks, q, seed + 200, q.space().size() / 3, 0.375);
    CHECK(symmetric.residual < 1e-12);
    CHECK(symmetric.same_for_any_threads);
  }
  CHECK(split == 16);
}

TEST_CASE(
    "generator operator: equals the assembled blocks past the flat clock case, for any thread "
    "count",
    "[crosscheck]") {
  const auto scenario =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml");
  for (const std::string admission : {"partial", "whole"}) {
    model::Model m = scenario.model;
    // 11 waiting clocks: the recursion splits on the head clock three times, and the top levels'
    // blocks are split into pieces by their first clocks (split_clocks).
    m.capacity = 12;
    if (admission == "whole") m.admission = model::Admission::kRejectBatch;
    for (const model::ControlPolicy& policy : std::vector<model::ControlPolicy>{
             model::Policy::from_levels({4, 4, 3, 1, 2, 1, 4, 1, 1, 3, 1, 2, 1}, 4, 12),
             model::make_phase_aware({{4, 1},
                                      {4, 1},
                                      {3, 3},
                                      {1, 2},
                                      {2, 2},
                                      {1, 4},
                                      {4, 4},
                                      {1, 1},
                                      {1, 3},
                                      {3, 3},
                                      {1, 1},
                                      {2, 1},
                                      {1, 1}},
                                     4, 12, 2, "policy"),
             model::make_hysteresis(4, 1, 9, 3, 4, 12, "policy")}) {
      INFO("admission " << admission << ", policy " << model::policy_kind(policy));
      const analytic::GeneratorBlocks blocks(m, policy);
      const analytic::GeneratorOperator q(m, blocks.arrivals());
      const AssembledGaps gaps = gaps_to_assembled(blocks, q, 7);
      CHECK(gaps.product < 1e-13);
      CHECK(gaps.same_for_any_threads);
    }
  }
}

TEST_CASE(
    "generator operator: a long buffer of small levels, blocks side by side, for any thread count",
    "[crosscheck]") {
  model::Model m =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  m.obsolescence = model::PhaseType(model::RowVector::Ones(1), model::Matrix::Constant(1, 1, -0.2));
  m.capacity = 3000;  // 4 states a level: levels in turn would cost a barrier each
  const analytic::GeneratorBlocks blocks(
      m, model::Policy::from_thresholds({-1, 2, 40}, 4, m.capacity));
  const analytic::GeneratorOperator q(m, blocks.arrivals());
  const AssembledGaps gaps = gaps_to_assembled(blocks, q, 13);
  CHECK(gaps.product < 1e-13);
  CHECK(gaps.same_for_any_threads);
}

TEST_CASE(
    "generator operator: the forward sweep solves the levels' lower triangle of Q^T, for any "
    "thread count",
    "[crosscheck]") {
  // (D + L) z = r, where (Q^T)_ji enters L when state i lies on a lower level than j: the moves up.
  model::Model m =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  m.capacity = 13;  // the top levels split into pieces
  const analytic::GeneratorBlocks blocks(
      m, model::Policy::from_levels({4, 4, 3, 1, 2, 1, 4, 1, 1, 3, 1, 2, 1, 2}, 4, 13));
  const analytic::GeneratorOperator q(m, blocks.arrivals());
  const SweepGaps sweep = forward_sweep_gaps(blocks, q, 17);
  CHECK(sweep.residual < 1e-12);
  CHECK(sweep.same_for_any_threads);
}

TEST_CASE(
    "generator operator: the symmetric sweep solves its triangles of Q^T, for any thread count",
    "[crosscheck]") {
  // The top levels split into pieces (their first clocks' expiries left out of U) and hold more
  // clocks than the sweep takes the expiries of.
  model::Model m =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  m.capacity = 13;
  const analytic::GeneratorBlocks blocks(
      m, model::Policy::from_levels({4, 4, 3, 1, 2, 1, 4, 1, 1, 3, 1, 2, 1, 2}, 4, 13));
  const analytic::GeneratorOperator q(m, blocks.arrivals());
  REQUIRE(q.split_clocks(13) > 0);
  REQUIRE(q.swept_expiring_clocks(13) < 12 - q.split_clocks(13));
  for (const Eigen::Index pinned : {Eigen::Index{1}, blocks.space().level_offset(12) + 5}) {
    const SweepGaps sweep = symmetric_sweep_gaps(blocks, q, 19, pinned, 1.0);
    CHECK(sweep.residual < 1e-12);
    CHECK(sweep.same_for_any_threads);
  }
}

TEST_CASE(
    "generator operator: the symmetric sweep with one-phase clocks, and with pages that never "
    "expire",
    "[crosscheck]") {
  model::Model m =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  m.capacity = 7;
  const auto policy = model::Policy::from_levels({2, 4, 3, 1, 2, 3, 1, 1}, 4, 7);
  for (const bool expire : {true, false}) {
    INFO((expire ? "exponential clocks" : "no clocks"));
    if (expire)
      m.obsolescence = model::PhaseType::exponential(0.7);
    else
      m.obsolescence.reset();
    const analytic::GeneratorBlocks blocks(m, policy);
    const analytic::GeneratorOperator q(m, blocks.arrivals());
    const SweepGaps sweep = symmetric_sweep_gaps(blocks, q, 29, 3, 0.25);
    CHECK(sweep.residual < 1e-12);
    CHECK(sweep.same_for_any_threads);
  }
}

TEST_CASE("generator operator: a three-phase clock, pieces split by their first clocks",
          "[crosscheck]") {
  model::Model m =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  Eigen::MatrixXd clock(3, 3);
  clock << -1.0, 0.5, 0.25, 0.125, -0.5, 0.25, 0.2, 0.1, -0.6;
  m.obsolescence = model::PhaseType(model::RowVector(Eigen::RowVector3d(0.5, 0.3, 0.2)), clock);
  m.capacity = 9;  // 3^8 clocks at the top level: pieces of 3^6 states
  const analytic::GeneratorBlocks blocks(
      m, model::Policy::from_levels({4, 4, 3, 1, 2, 1, 4, 1, 1, 3}, 4, 9));
  const analytic::GeneratorOperator q(m, blocks.arrivals());
  const AssembledGaps gaps = gaps_to_assembled(blocks, q, 11);
  CHECK(gaps.product < 1e-13);
  CHECK(gaps.same_for_any_threads);
  // The symmetric sweep takes the expiries of 3^3 combinations' clocks, fewer than the unsplit 6.
  REQUIRE(q.swept_expiring_clocks(9) == 3);
  const SweepGaps sweep = symmetric_sweep_gaps(blocks, q, 23, 2, 1.0);
  CHECK(sweep.residual < 1e-12);
  CHECK(sweep.same_for_any_threads);
}

TEST_CASE(
    "generator operator: batches whose fresh clocks outnumber a piece's states, for any thread "
    "count",
    "[crosscheck]") {
  // Batches of up to 8 pages with a three-phase clock: at the top levels 3^7 and 3^8 fresh clock
  // combinations span several pieces of 3^6 states, so those batches fan out outside the nested
  // sum.
  const model::Model m = scenarios::parse_scenario(R"(
capacity: 9
arrivals:
  kind: poisson
  modes:
    - {rate: 1.5, batch: [0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]}
    - {rate: 0.5, batch: [0.2, 0, 0.3, 0, 0, 0, 0.2, 0.3]}
service: {exponential: {mean: 0.5}}
obsolescence: {gamma: [0.5, 0.3, 0.2], Gamma: [[-1, 0.5, 0.25], [0.125, -0.5, 0.25], [0.2, 0.1, -0.6]]}
)",
                                                   "long-batches")
                             .model;
  const analytic::GeneratorBlocks blocks(
      m, model::Policy::from_levels({2, 2, 1, 1, 2, 1, 2, 1, 1, 1}, 2, 9));
  const analytic::GeneratorOperator q(m, blocks.arrivals());
  const AssembledGaps gaps = gaps_to_assembled(blocks, q, 19);
  CHECK(gaps.product < 1e-13);
  CHECK(gaps.same_for_any_threads);
}

}  // namespace
}  // namespace crawlq::crosscheck
