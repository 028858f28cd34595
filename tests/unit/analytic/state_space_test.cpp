#include "analytic/stationary/state_space.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "analytic/stationary/memory_estimate.hpp"
#include "analytic/stationary/method_choice.hpp"
#include "scenarios/scenario_loader.hpp"

using crawlq::analytic::StateSpace;

TEST_CASE("levels 0..K hold W(1 + M(R^K - 1)/(R - 1)) states (ERRATA.md)", "[state_space]") {
  // The paper's example: W = M = R = 2, K = 5 -> 126.
  CHECK(StateSpace(5, 2, 2, 2).size() == 126);
  for (int k = 1; k <= 8; ++k)
    for (int r = 2; r <= 3; ++r) {
      const double expected = 3 * (1 + 2 * (std::pow(r, k) - 1) / (r - 1));
      CHECK(StateSpace(k, 3, 2, r).size() == static_cast<Eigen::Index>(expected));
    }
  CHECK(StateSpace(4, 2, 3, 1).size() == 2 * (1 + 3 * 4));  // pages that never expire
}

TEST_CASE("state numbering is lexicographic and round-trips", "[state_space]") {
  const StateSpace space(4, 2, 3, 2);
  for (Eigen::Index i = 0; i < space.size(); ++i) CHECK(space.index(space.state(i)) == i);
  // Level 3, arrival phase 1, service phase 2, clocks (head 1, tail 0): after level 0..2's states,
  // ((1 * 3 + 2) * 2 + 1) * 2 + 0.
  const StateSpace::State s{
      .level = 3, .arrival_phase = 1, .service_phase = 2, .clock_phases = {1, 0}};
  CHECK(space.index(s) == space.level_offset(3) + ((1 * 3 + 2) * 2 + 1) * 2 + 0);
  CHECK(space.level_offset(3) == 2 + 6 + 12);
}

TEST_CASE("the memory estimate counts the states and grows with K", "[memory]") {
  auto scenario = crawlq::scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                                   "/scenarios/data/paper-example-1.yaml");
  auto m = scenario.model;
  CHECK(crawlq::analytic::estimate_memory(m).states == Approx(126));
  m.capacity = 30;
  CHECK(crawlq::analytic::estimate_memory(m).states ==
        Approx(2 * (1 + 2 * (std::pow(2.0, 30) - 1))));
  using crawlq::analytic::Method;
  // The block recursion's dense top blocks of 2^(K+1) rows: 1 GiB allows K = 11 (a 4096-row block
  // is 128 MiB) but not 13.
  const auto largest =
      crawlq::analytic::largest_capacity_within(m, double(1 << 30), Method::kBlockRecursion);
  REQUIRE(largest.has_value());
  CHECK(*largest >= 10);
  CHECK(*largest <= 12);
  m.capacity = *largest;
  CHECK(crawlq::analytic::estimate_memory(m, Method::kBlockRecursion).bytes <= double(1 << 30));
  m.capacity = *largest + 1;
  CHECK(crawlq::analytic::estimate_memory(m, Method::kBlockRecursion).bytes > double(1 << 30));
  // The iterative solver and the sojourn times' tagged-page chain store only vectors (both apply
  // their generators from the factors): `crawlq solve --sojourn` holds 297 MB at K = 20 (4.2
  // million states), and a stiff chain's Krylov steps a basis of 30 vectors beside them (1.0 GB),
  // so 1 GiB holds K = 19 (tests/cli/memory_estimate_test.cpp measures the parts), and the
  // automatic choice for large K is the iterative solver.
  const auto sparse =
      crawlq::analytic::largest_capacity_within(m, double(1 << 30), Method::kIterative);
  REQUIRE(sparse.has_value());
  CHECK(*sparse == 19);
  m.capacity = 20;
  CHECK(crawlq::analytic::automatic_method(m) == Method::kIterative);
  CHECK(crawlq::analytic::estimate_memory(m).bytes >= 297e6 + 30 * 8 * 4194302.0);
  m.capacity = 5;
  CHECK(crawlq::analytic::automatic_method(m) == Method::kBlockRecursion);
  // Pages that never expire: W (1 + M K) states, so 1 GiB holds K in the thousands, found by
  // bisection rather than a walk that stopped at 200.
  m.obsolescence.reset();
  const auto long_buffer =
      crawlq::analytic::largest_capacity_within(m, double(1 << 30), Method::kIterative);
  REQUIRE(long_buffer.has_value());
  CHECK(*long_buffer > 1000);
  m.capacity = *long_buffer;
  CHECK(crawlq::analytic::estimate_memory(m, Method::kIterative).bytes <= double(1 << 30));
  m.capacity = *long_buffer + 1;
  CHECK(crawlq::analytic::estimate_memory(m, Method::kIterative).bytes > double(1 << 30));
}
