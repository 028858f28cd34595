// The registry is the one list of stationary solvers: names round-trip, the help names each one,
// and each entry makes the solver it says, whose memory need is its own.
#include "analytic/stationary/solver_registry.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "analytic/stationary/memory_estimate.hpp"
#include "analytic/stationary/method_choice.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq {
namespace {

model::Model paper_example() {
  return scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                  "/scenarios/data/paper-example-1.yaml")
      .model;
}

}  // namespace

TEST_CASE("every registered solver has one name, its help, and makes itself",
          "[analytic][registry]") {
  const model::Model m = paper_example();
  const analytic::GeneratorBlocks blocks(m, *m.level_map());
  std::set<std::string> names;
  for (const auto& solver : analytic::registered_solvers()) {
    const std::string name(solver.name);
    INFO(name);
    CHECK(names.insert(name).second);
    CHECK(analytic::parse_method(name) == solver.method);
    CHECK(analytic::method_name(solver.method) == name);
    CHECK(analytic::method_help().find(name + " (") != std::string::npos);
    CHECK(solver.make({})->method() == solver.method);
    CHECK(analytic::make_solver(solver.method, blocks)->method() == solver.method);
    CHECK(analytic::estimate_memory(m, solver.method).bytes == solver.memory(m).bytes);
    CHECK(solver.memory(m).states == Approx(126));
  }
  CHECK(names.size() == 4);
  CHECK(analytic::parse_method("auto") == analytic::Method::kAuto);
  CHECK_THROWS_WITH(analytic::parse_method("gauss-seidel"),
                    Catch::Contains("known: auto, block-recursion, qbd, sparse-lu, iterative"));
}

TEST_CASE("auto resolves through the registry to the rule it prints", "[analytic][registry]") {
  model::Model m = paper_example();
  CHECK(&analytic::registration(analytic::Method::kAuto, m) ==
        &analytic::registration(analytic::Method::kBlockRecursion, m));
  m.capacity = 9;  // 2 + 2 * (2^10 - 2) + ... > 2000 states
  CHECK(analytic::estimate_memory(m).states > 2000);
  CHECK(&analytic::registration(analytic::Method::kAuto, m) ==
        &analytic::registration(analytic::Method::kIterative, m));
  CHECK(std::string(analytic::kAutomaticRule).find("2000") != std::string::npos);
}

TEST_CASE("auto keeps the block recursion for a long buffer whose levels stay small",
          "[analytic][registry]") {
  // One clock phase: every level has W M = 4 states however long the buffer, so the recursion's
  // work is linear in K while a Krylov method needs more iterations the longer the chain.
  model::Model m = paper_example();
  m.obsolescence = model::PhaseType(model::RowVector::Ones(1), model::Matrix::Constant(1, 1, -0.2));
  m.capacity = 5000;
  CHECK(analytic::estimate_memory(m).states > 2000);
  CHECK(&analytic::registration(analytic::Method::kAuto, m) ==
        &analytic::registration(analytic::Method::kBlockRecursion, m));
  m.obsolescence.reset();
  CHECK(&analytic::registration(analytic::Method::kAuto, m) ==
        &analytic::registration(analytic::Method::kBlockRecursion, m));
}

}  // namespace crawlq
