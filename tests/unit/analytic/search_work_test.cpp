// What a policy search solves, counted before it starts and as it goes: counts that never overflow,
// the least work of each search checked by hand, and a meter that stops a search at its budget
// whatever the thread count.
#include "analytic/control/search_work.hpp"

#include <catch2/catch.hpp>
#include <limits>

#include "analytic/control/class_comparison.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "tests/support/paper_example.hpp"

namespace crawlq {
namespace {

model::Model paper_example(int capacity) { return test_support::paper_example_at(capacity); }

}  // namespace

TEST_CASE("threshold vectors are counted without overflow, however many robots",
          "[analytic][search][work]") {
  CHECK(analytic::threshold_policy_count(4, 12) == 560);
  CHECK(analytic::threshold_vector_count(4, 12) == 560);
  // 2,000 robots, K = 4: C(2004, 5). The product C(n, i) (n - k + i) overflowed 64 bits on the way.
  CHECK(analytic::threshold_policy_count(2000, 4) == 268'002'335'000'400);
  CHECK(analytic::threshold_vector_count(2000, 4) == Approx(2.680023350004e14));
  CHECK(analytic::threshold_policy_count(2000, 100'000) ==
        std::numeric_limits<std::int64_t>::max());
  CHECK(analytic::threshold_policy_count(1, 7) == 1);
}

TEST_CASE("the least work of each search, counted by hand on the paper's example",
          "[analytic][search][work]") {
  const model::Model m = paper_example(5);
  const double each = analytic::policy_work(m);
  CHECK(each == Approx(126 + analytic::kPolicyOverheadStates + 6 * analytic::kLevelOverheadStates));
  const analytic::SearchWork exhaustive =
      analytic::least_threshold_work(m, analytic::Search::kExhaustive);
  CHECK(exhaustive.policies == 84);  // C(9, 3)
  CHECK(exhaustive.work == Approx(84 * each));
  // The grid {-1, 2, 5}^3 non-decreasing (10), and each of 3 thresholds a level down and up.
  CHECK(analytic::least_threshold_work(m, analytic::Search::kLocal).policies == 16);
  CHECK(analytic::least_threshold_work(m, analytic::Search::kAuto).policies == 84);
  // 4^6 level maps; the memory class's 4^24 tables are descended: the start and 6 x 4 entries x 3
  // values.
  CHECK(analytic::level_map_work(m).policies == 4096);
  CHECK(analytic::least_table_work(m, analytic::TableClass::kMemory, analytic::kExhaustiveTables)
            .policies == 73);
  CHECK(analytic::least_class_work(m, "levels", analytic::Search::kAuto, 1'000'000).policies ==
        4096);
  CHECK(analytic::least_class_work(m, "markov", analytic::Search::kAuto, 1'000'000).policies ==
        84 + 2 * analytic::kMarkovCandidates);
  // Beyond K = 32 the local search's round holds the long jumps too.
  CHECK(analytic::least_threshold_work(paper_example(100), analytic::Search::kLocal).policies >
        10 + 6 * 3);
}

TEST_CASE("a work meter refuses the batch that would pass its budget, before counting it",
          "[analytic][search][work]") {
  analytic::WorkMeter meter(100);
  meter.spend(4, 20);
  CHECK(meter.spent() == 80);
  CHECK_THROWS_AS(meter.afford(2, 20), analytic::SearchBeyondBudget);
  CHECK_THROWS_WITH(meter.spend(2, 20), Catch::Contains("after 4 policies solved"));
  CHECK(meter.policies() == 4);
  analytic::WorkMeter unbounded;
  unbounded.spend(1e9, 1e9);
  CHECK(unbounded.policies() == 1e9);
}

TEST_CASE("the local search stops at its meter's budget, at the same count on any thread count",
          "[analytic][search][work]") {
  const model::Model m = paper_example(5);
  const analytic::PolicyEvaluator evaluator(m);
  const double each = analytic::policy_work(m);
  for (int threads : {1, 2}) {
    INFO(threads << " threads");
    // The grid's 10 policies fit, the neighbours of its best do not.
    analytic::WorkMeter meter(12 * each);
    CHECK_THROWS_AS(
        analytic::optimize_thresholds_locally(evaluator, {.threads = threads, .meter = &meter}),
        analytic::SearchBeyondBudget);
    CHECK(meter.policies() == 10);
  }
  analytic::WorkMeter enough(analytic::kMostSearchWork);
  const auto local =
      analytic::optimize_thresholds_locally(evaluator, {.threads = 2, .meter = &enough});
  CHECK(enough.policies() == local.policies_solved);
  // 2,000 robots: the grid of 2,001,000 vectors is refused before it is built.
  analytic::WorkMeter small(analytic::kMostSearchWork);
  CHECK_THROWS_AS(small.afford(analytic::threshold_vector_count(2000, 1), 1000),
                  analytic::SearchBeyondBudget);
}

TEST_CASE("a table class's descent makes its neighbours as it solves them, and the meter bounds it",
          "[analytic][search][work]") {
  const model::Model m = paper_example(5);
  const analytic::PolicyEvaluator evaluator(m);
  const model::Policy start = model::Policy::from_thresholds({-1, 2, 2}, 4, 5);
  const auto free = analytic::optimize_table_class(evaluator, analytic::TableClass::kMemory, start,
                                                   analytic::kExhaustiveTables, 2);
  CHECK_FALSE(free.exhaustive);
  CHECK(free.policies_solved ==
        1 + 24 * 3 * (free.moves + 1));  // 6 levels x 4 modes in force, 3 other values each
  analytic::WorkMeter meter(10 * analytic::policy_work(m, 4));
  CHECK_THROWS_AS(analytic::optimize_table_class(evaluator, analytic::TableClass::kMemory, start,
                                                 analytic::kExhaustiveTables, 2, &meter),
                  analytic::SearchBeyondBudget);
  CHECK(meter.policies() == 1);
}

}  // namespace crawlq
