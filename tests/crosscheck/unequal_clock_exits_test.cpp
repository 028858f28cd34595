// The matrix-free generator and the iterative solver under an obsolescence clock whose two phases
// leave at different rates (0.2 and 0.5, gamma = (0.3, 0.7)). The paper's clock leaves at 0.2 from
// both phases, so a fixture built on it cannot tell one phase's exit rate from the other's. At
// capacity 11 the top level's blocks (2^10 clock combinations) are the first split into pieces by
// their head clock (generator_operator.cpp, split_clocks: pieces of at least 512 states), whose
// expiries take the two-phase branch there: K = 11 is the smallest capacity that reaches it.
#include <catch2/catch.hpp>
#include <string>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/stationary/generator_blocks.hpp"
#include "analytic/stationary/generator_operator.hpp"
#include "analytic/stationary/measures.hpp"
#include "analytic/stationary/stationary_solver.hpp"
#include "scenarios/scenario_loader.hpp"
#include "tests/crosscheck/brute_force_chain.hpp"
#include "tests/crosscheck/operator_checks.hpp"

namespace crawlq::crosscheck {
namespace {

constexpr int kFirstSplitCapacity = 11;
const char* const kUnequalClock = R"({gamma: [0.3, 0.7], Gamma: [[-0.6, 0.4], [0.1, -0.6]]})";

// The paper's first example with the unequal clock, at capacity `k`, under a level map that uses
// every mode.
model::Model paper_with_unequal_clock(int k, model::Admission admission) {
  model::Model m =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  m.obsolescence =
      model::PhaseType(model::RowVector{{0.3, 0.7}}, model::Matrix{{-0.6, 0.4}, {0.1, -0.6}});
  m.capacity = k;
  m.admission = admission;
  std::vector<int> levels(static_cast<std::size_t>(k + 1));
  for (int i = 0; i <= k; ++i) levels[static_cast<std::size_t>(i)] = 1 + (3 * i + 1) % 4;
  m.policy = model::Policy::from_levels(levels, 4, k);
  return m;
}

// One arrival phase, one service phase: the smallest chain with the split (2,048 states), small
// enough for the dense brute force.
model::Model small_with_unequal_clock() {
  const std::string text =
      "name: unequal-clock\ncapacity: " + std::to_string(kFirstSplitCapacity) +
      "\nadmission: partial\n"
      "arrivals: {kind: poisson, modes: [{rate: 0.8, batch: [0.6, 0.4]},"
      " {rate: 2.0, batch: [0.5, 0.3, 0.2]}]}\n"
      "service: {exponential: {mean: 0.7}}\nobsolescence: " +
      std::string(kUnequalClock) +
      "\ncosts: {loss: 5, obsolescence: 10, sojourn: 2, robot: 20, starvation: 300}\n"
      "policy: {levels: [2, 2, 2, 1, 2, 1, 1, 2, 1, 1, 2, 1]}\n";
  return scenarios::parse_scenario(text, "unequal-clock.yaml").model;
}

TEST_CASE(
    "unequal clock exits: the clock's exit rates differ, so its phases cannot be swapped unseen",
    "[crosscheck][symmetry]") {
  const model::Model m = small_with_unequal_clock();
  REQUIRE(m.obsolescence->exit_rates()(0) == Approx(0.2));
  REQUIRE(m.obsolescence->exit_rates()(1) == Approx(0.5));
}

TEST_CASE(
    "unequal clock exits: x Q at the first split capacity equals the Lemma's assembled blocks",
    "[crosscheck][symmetry]") {
  for (const auto admission : {model::Admission::kPartial, model::Admission::kRejectBatch}) {
    const model::Model m = paper_with_unequal_clock(kFirstSplitCapacity, admission);
    // A level map, and hysteresis, whose memory sends a level's expiries to another mode's block.
    for (const model::ControlPolicy& policy : std::vector<model::ControlPolicy>{
             *m.level_map(),
             model::make_hysteresis(4, 1, 8, 3, 4, kFirstSplitCapacity, "policy")}) {
      INFO("admission " << (admission == model::Admission::kPartial ? "partial" : "reject-batch")
                        << ", policy " << model::policy_kind(policy));
      const analytic::GeneratorBlocks blocks(m, policy);
      const analytic::GeneratorOperator q(m, blocks.arrivals());
      REQUIRE(q.split_clocks(kFirstSplitCapacity) == 1);
      REQUIRE(q.split_clocks(kFirstSplitCapacity - 1) == 0);
      const AssembledGaps gaps = gaps_to_assembled(blocks, q, 23);
      CHECK(gaps.product < 1e-13);
      CHECK(gaps.same_for_any_threads);
    }
  }
}

TEST_CASE(
    "unequal clock exits: four split clocks, levels shared piece by piece, equal the assembled "
    "blocks",
    "[crosscheck][symmetry]") {
  // K = 14: the top level's 2^13 clock combinations are split by their first four clocks, and
  // levels average over 4,096 states, so a level's pieces are shared among threads one level at a
  // time (the other loop of GeneratorOperator::apply). Only the paper's clock reached these before.
  const model::Model m = paper_with_unequal_clock(14, model::Admission::kPartial);
  const analytic::GeneratorBlocks blocks(m, *m.level_map());
  const analytic::GeneratorOperator q(m, blocks.arrivals());
  REQUIRE(q.space().size() == 65534);
  REQUIRE(q.split_clocks(14) == 4);
  const AssembledGaps gaps = gaps_to_assembled(blocks, q, 31);
  CHECK(gaps.product < 1e-13);
  CHECK(gaps.same_for_any_threads);
}

TEST_CASE("unequal clock exits: x Q equals the brute force's generator, written state by state",
          "[crosscheck][symmetry]") {
  const model::Model m = small_with_unequal_clock();
  const BruteForceChain chain(m, *m.level_map());
  const analytic::ControlledArrivals arrivals(m, *m.level_map());
  const analytic::GeneratorOperator q(m, arrivals);
  REQUIRE(q.space().size() == chain.size());
  REQUIRE(q.space().size() == 2048);
  REQUIRE(q.split_clocks(kFirstSplitCapacity) == 1);
  const BruteForceGaps gaps = gaps_to_brute_force(chain, arrivals, q, 29);
  CHECK(gaps.product < 1e-13);
  CHECK(gaps.diagonal < 1e-12);

  // Solved: the iterative solver (the operator) against the brute force's dense solution.
  const analytic::PolicyEvaluator evaluator(m, analytic::Method::kIterative);
  const analytic::PolicyEvaluation solved = evaluator.evaluate(*m.level_map());
  REQUIRE(solved.stationary.summary.status == analytic::SolverStatus::kConverged);
  const ChainMeasures& brute = chain.measures();
  CHECK(solved.measures.p_loss == Approx(brute.p_loss).epsilon(1e-9));
  CHECK(solved.measures.p_obsolete == Approx(brute.p_obsolete).epsilon(1e-9));
  CHECK(solved.measures.p_served == Approx(brute.p_served).epsilon(1e-9));
  CHECK(solved.measures.mean_in_system == Approx(brute.mean_in_system).epsilon(1e-9));
  CHECK(solved.measures.level_probabilities.back() ==
        Approx(brute.level_probabilities.back()).epsilon(1e-8));
}

// Each direct method against the iterative one on both fixtures; the block recursion's dense top
// blocks (2 x 2 x 2^10 states) make it the slow one on the paper's example, so there only sparse
// LU.
void compare_with_direct(const model::Model& m, const std::vector<analytic::Method>& methods) {
  const analytic::PolicyEvaluation iterative =
      analytic::PolicyEvaluator(m, analytic::Method::kIterative).evaluate(*m.level_map());
  REQUIRE(iterative.stationary.summary.status == analytic::SolverStatus::kConverged);
  REQUIRE(iterative.stationary.summary.method == analytic::Method::kIterative);
  for (const auto method : methods) {
    INFO(m.name << ", " << analytic::method_name(method));
    const analytic::PolicyEvaluation direct =
        analytic::PolicyEvaluator(m, method).evaluate(*m.level_map());
    REQUIRE(direct.stationary.summary.status == analytic::SolverStatus::kConverged);
    CHECK((iterative.stationary.probabilities - direct.stationary.probabilities)
              .cwiseAbs()
              .maxCoeff() < 1e-11);
    CHECK(iterative.measures.cost == Approx(direct.measures.cost).epsilon(1e-9));
    CHECK(iterative.measures.p_obsolete == Approx(direct.measures.p_obsolete).epsilon(1e-9));
  }
}

TEST_CASE("unequal clock exits: the iterative solver equals the direct methods past the split",
          "[crosscheck][symmetry]") {
  compare_with_direct(small_with_unequal_clock(),
                      {analytic::Method::kBlockRecursion, analytic::Method::kSparseLu});
  compare_with_direct(paper_with_unequal_clock(kFirstSplitCapacity, model::Admission::kPartial),
                      {analytic::Method::kSparseLu});
}

}  // namespace
}  // namespace crawlq::crosscheck
