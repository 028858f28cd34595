// The iterative solver on the paper's example at capacities where the direct methods still run
// (K = 10: block recursion and SparseLU) and beyond them (K = 16, 262,142 states): the same vector,
// and a residual ||pQ||_1 far below the 1e-10 an outside check asks for.
#include <catch2/catch.hpp>

#include "analytic/stationary/measures.hpp"
#include "analytic/stationary/stationary_solver.hpp"
#include "scenarios/scenario_loader.hpp"

using namespace crawlq;

namespace {
model::Model example(int capacity) {
  model::Model m = scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                            "/scenarios/data/paper-example-1.yaml")
                       .model;
  m.capacity = capacity;
  m.policy = model::Policy::from_thresholds({-1, 2, 2}, 4, capacity);
  return m;
}
}  // namespace

TEST_CASE("iterative solver equals the block recursion and SparseLU at K = 10",
          "[crosscheck][iterative]") {
  const model::Model m = example(10);
  const analytic::GeneratorBlocks blocks(m, *m.level_map());
  const auto iterative = analytic::solve_stationary(blocks, analytic::Method::kIterative);
  REQUIRE(iterative.summary.status == analytic::SolverStatus::kConverged);
  CHECK(iterative.summary.residual < 1e-12);
  for (auto method : {analytic::Method::kBlockRecursion, analytic::Method::kSparseLu}) {
    INFO(analytic::method_name(method));
    const auto direct = analytic::solve_stationary(blocks, method);
    CHECK((iterative.probabilities - direct.probabilities).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("iterative solver at K = 16: residual below 1e-12, measures consistent",
          "[crosscheck][iterative]") {
  const model::Model m = example(16);
  const analytic::GeneratorBlocks blocks(m, *m.level_map());
  REQUIRE(blocks.space().size() == 262142);
  const auto r = analytic::solve_stationary(blocks, analytic::Method::kIterative);
  REQUIRE(r.summary.status == analytic::SolverStatus::kConverged);
  CHECK(r.summary.residual < 1e-12);
  const auto measures =
      analytic::compute_measures(m, blocks.arrivals(), blocks.space(), r.probabilities);
  CHECK(measures.p_loss + measures.p_obsolete + measures.p_served == Approx(1.0).epsilon(1e-10));
  // Capacity 16 loses far fewer pages than capacity 10 under the same policy shape.
  const model::Model small = example(10);
  const analytic::GeneratorBlocks small_blocks(small, *small.level_map());
  const auto s = analytic::solve_stationary(small_blocks, analytic::Method::kIterative);
  CHECK(measures.p_loss < analytic::compute_measures(small, small_blocks.arrivals(),
                                                     small_blocks.space(), s.probabilities)
                                  .p_loss /
                              10);
}

// No sparse direct factorisation reaches K = 14 here (sparse_lu_solver.hpp: the factors fill in to
// about 0.4 n^2), so the iterative solution is checked against the generator assembled from the
// Lemma's Kronecker blocks, code the solver never runs: ||p Q||_1 of that matrix, and each level's
// balance of flows up and down across the cut between it and the next.
TEST_CASE(
    "iterative solver at K = 14: stationary for the generator assembled from the Lemma's blocks",
    "[crosscheck][iterative]") {
  const model::Model m = example(14);
  const analytic::GeneratorBlocks blocks(m, *m.level_map());
  REQUIRE(blocks.space().size() == 65534);
  const auto r = analytic::solve_stationary(blocks, analytic::Method::kIterative, {.threads = 2});
  REQUIRE(r.summary.status == analytic::SolverStatus::kConverged);
  const analytic::SparseMatrix q = blocks.assemble();
  const Eigen::RowVectorXd flow = r.probabilities.transpose() * q;
  CHECK(flow.lpNorm<1>() < 1e-12);
  const analytic::StateSpace& space = blocks.space();
  for (int cut = 0; cut < m.capacity; ++cut) {
    // Rate from levels <= cut to levels > cut equals the rate back down (one level at a time).
    double up = 0, down = 0;
    for (int from = 0; from <= m.capacity; ++from)
      for (int to = 0; to <= m.capacity; ++to) {
        if ((from <= cut) == (to <= cut)) continue;
        const Eigen::RowVectorXd p =
            r.probabilities.segment(space.level_offset(from), space.level_size(from)).transpose();
        const double rate = (p * blocks.block(from, to)).sum();
        (from <= cut ? up : down) += rate;
      }
    INFO("cut between levels " << cut << " and " << cut + 1);
    CHECK(up == Approx(down).epsilon(1e-10));
  }
}
