// auto's choice of a stationary solver from the chain's shape: never BiCGSTAB where it cannot
// converge in time (an Erlang law of many phases), and a direct method when an iterative solve
// stops anyway.
#include "analytic/stationary/method_choice.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "analytic/stationary/memory_estimate.hpp"
#include "analytic/stationary/solver_registry.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq {
namespace {

model::Model shipped(const std::string& name) {
  return scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data/" + name).model;
}

model::PhaseType erlang(int phases, double mean) {
  const double rate = phases / mean;
  model::Matrix s = model::Matrix::Zero(phases, phases);
  for (int i = 0; i < phases; ++i) {
    s(i, i) = -rate;
    if (i + 1 < phases) s(i, i + 1) = rate;
  }
  model::RowVector start = model::RowVector::Zero(phases);
  start(0) = 1;
  return model::PhaseType(start, s);
}

}  // namespace

TEST_CASE("absorption_depth: the fewest jumps out from the farthest phase", "[analytic][method]") {
  CHECK(analytic::absorption_depth(model::PhaseType::exponential(2.0)) == 1);
  CHECK(analytic::absorption_depth(erlang(7, 1.0)) == 7);
  model::Matrix s(2, 2);
  s << -3, 1, 2, -3;  // paper-example-1's service: both phases leave directly
  CHECK(analytic::absorption_depth(model::PhaseType(model::RowVector::Constant(2, 0.5), s)) == 1);
}

TEST_CASE("auto takes sparse LU for an Erlang-1000 service, where BiCGSTAB stops unconverged",
          "[analytic][method]") {
  // teaching-two-robots with Erlang-1000 service: 4,001 states in levels of 1,000. BiCGSTAB stopped
  // after 5,000 iterations (111 s) where sparse LU answers in 0.03 s (issue 28).
  model::Model m = shipped("teaching-two-robots.yaml");
  m.service = erlang(1000, 0.5);
  CHECK(analytic::estimate_memory(m).states == 4001);
  CHECK(analytic::krylov_reach(m) == 1000);
  CHECK(analytic::iterative_work(m) > analytic::recursion_work(m));
  CHECK(analytic::automatic_method(m) == analytic::Method::kSparseLu);
  // The paper's chains keep BiCGSTAB where it was picked before: their laws have two phases.
  model::Model paper = shipped("paper-example-1.yaml");
  for (int k : {9, 12, 16}) {
    paper.capacity = k;
    INFO("K = " << k);
    CHECK(analytic::automatic_method(paper) == analytic::Method::kIterative);
  }
  CHECK(std::string(analytic::kAutomaticRule).find("sparse-lu") != std::string::npos);
}

TEST_CASE(
    "auto does again by a direct method an iterative solve that stops unconverged, and says so",
    "[analytic][method]") {
  model::Model m = shipped("paper-example-1.yaml");
  m.capacity = 9;  // 2,046 states: auto runs BiCGSTAB
  REQUIRE(analytic::automatic_method(m) == analytic::Method::kIterative);
  m.policy = model::Policy::from_thresholds({-1, 2, 2}, 4, 9);
  const analytic::GeneratorBlocks blocks(m, *m.level_map());
  // Two iterations cannot converge: the explicit method reports it, auto answers all the same.
  const analytic::SolveOptions stalls{.max_iterations = 2};
  const analytic::StationaryResult iterative =
      analytic::solve_stationary(blocks, analytic::Method::kIterative, stalls);
  CHECK(iterative.summary.status == analytic::SolverStatus::kFailed);
  CHECK(iterative.summary.fallback.empty());
  const analytic::StationaryResult automatic =
      analytic::solve_stationary(blocks, analytic::Method::kAuto, stalls);
  REQUIRE(automatic.summary.status == analytic::SolverStatus::kConverged);
  CHECK(automatic.summary.method == analytic::direct_fallback(m));
  CHECK_THAT(automatic.summary.fallback,
             Catch::StartsWith("auto: BiCGSTAB stopped after 2 iterations") &&
                 Catch::Contains("then sparse-lu"));
  const analytic::StationaryResult direct =
      analytic::solve_stationary(blocks, analytic::Method::kSparseLu);
  CHECK((automatic.probabilities - direct.probabilities).lpNorm<1>() < 1e-12);
}

}  // namespace crawlq
