// Policy search over the threshold class: the local search's neighbourhood and start grid checked
// by hand, the local search against enumeration on the paper's first example, warm-started
// enumeration against cold, and both searches independent of the thread count.
#include "analytic/control/policy_search.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <vector>

#include "scenarios/scenario_loader.hpp"

using namespace crawlq;
using analytic::Method;
using Vectors = std::vector<std::vector<int>>;

namespace {

model::Model paper_example(int capacity) {
  model::Model m =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  m.capacity = capacity;
  return m;
}

bool same_within(double a, double b, double relative) {
  return std::abs(a - b) <= relative * std::abs(b);
}

// Two exhaustive searches agree on every figure they report, to `relative`.
void check_same_search(const analytic::ThresholdSearch& a, const analytic::ThresholdSearch& b,
                       double relative) {
  CHECK(a.best.policy == b.best.policy);
  CHECK(same_within(a.best.cost, b.best.cost, relative));
  CHECK(a.policies_solved == b.policies_solved);
  REQUIRE(a.constant.size() == b.constant.size());
  for (std::size_t r = 0; r < a.constant.size(); ++r)
    CHECK(same_within(a.constant[r], b.constant[r], relative));
  REQUIRE(a.by_modes.size() == b.by_modes.size());
  for (std::size_t s = 0; s < a.by_modes.size(); ++s) {
    INFO("by_modes[" << s << "]");
    CHECK(a.by_modes[s].modes == b.by_modes[s].modes);
    CHECK(a.by_modes[s].best.policy == b.by_modes[s].best.policy);
    CHECK(same_within(a.by_modes[s].best.cost, b.by_modes[s].best.cost, relative));
  }
}

}  // namespace

TEST_CASE("threshold_neighbours: one threshold one step, equal ones pushed along, order kept",
          "[policy_search]") {
  // (-1,2,2) at K = 5: j_1 cannot go below -1; j_2 up pushes j_3, j_3 down pushes j_2.
  CHECK(analytic::threshold_neighbours({-1, 2, 2}, 5) ==
        Vectors{{0, 2, 2}, {-1, 1, 2}, {-1, 3, 3}, {-1, 1, 1}, {-1, 2, 3}});
  // Everything at K: only moves down, j_1 down alone, j_3 down pushing the others.
  CHECK(analytic::threshold_neighbours({5, 5, 5}, 5) == Vectors{{4, 5, 5}, {4, 4, 5}, {4, 4, 4}});
  CHECK(analytic::threshold_neighbours({0, 3}, 3) == Vectors{{-1, 3}, {1, 3}, {0, 2}});
  CHECK(analytic::threshold_neighbours({}, 4).empty());  // one mode: one policy
  // Every neighbour is a valid threshold vector other than the one it came from.
  for (const auto& j : analytic::threshold_neighbours({1, 1, 2, 4}, 4)) {
    INFO(j[0] << "," << j[1] << "," << j[2] << "," << j[3]);
    CHECK(std::is_sorted(j.begin(), j.end()));
    CHECK(j.front() >= -1);
    CHECK(j.back() <= 4);
    CHECK(j != std::vector<int>{1, 1, 2, 4});
    CHECK_NOTHROW(model::Policy::from_thresholds(j, 5, 4));
  }
}

TEST_CASE(
    "threshold_start_grid: every non-decreasing vector over {-1, K/2, K}, the constants among them",
    "[policy_search]") {
  const Vectors grid = analytic::threshold_start_grid(4, 5);
  CHECK(grid.size() == 10u);  // N (N + 1) / 2
  CHECK(grid.front() == std::vector<int>{-1, -1, -1});
  CHECK(grid[1] == std::vector<int>{-1, -1, 2});
  CHECK(grid.back() == std::vector<int>{5, 5, 5});
  std::set<int> constant_modes;
  for (const auto& j : grid) {
    const auto levels = model::Policy::from_thresholds(j, 4, 5).levels();
    if (std::set<int>(levels.begin(), levels.end()).size() == 1) constant_modes.insert(levels[0]);
  }
  CHECK(constant_modes == std::set<int>{1, 2, 3, 4});
  CHECK(analytic::threshold_start_grid(1, 5) == Vectors{{}});
  CHECK(analytic::threshold_start_grid(2, 1) == Vectors{{-1}, {0}, {1}});  // K / 2 = 0
}

TEST_CASE("search names, and auto enumerates the paper's example up to K = 12, not beyond",
          "[policy_search]") {
  for (auto s : {analytic::Search::kAuto, analytic::Search::kExhaustive, analytic::Search::kLocal})
    CHECK(analytic::parse_search(analytic::search_name(s)) == s);
  CHECK_THROWS_WITH(analytic::parse_search("greedy"), Catch::Contains("greedy") &&
                                                          Catch::Contains("exhaustive") &&
                                                          Catch::Contains("local"));
  CHECK(analytic::threshold_policy_count(4, 12) == 560);
  CHECK(analytic::choose_search(analytic::Search::kAuto, paper_example(12)) ==
        analytic::Search::kExhaustive);
  CHECK(analytic::choose_search(analytic::Search::kAuto, paper_example(13)) ==
        analytic::Search::kLocal);
  CHECK(analytic::choose_search(analytic::Search::kExhaustive, paper_example(16)) ==
        analytic::Search::kExhaustive);
  CHECK(analytic::choose_search(analytic::Search::kLocal, paper_example(2)) ==
        analytic::Search::kLocal);
  const model::Model real =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-real-data.yaml").model;
  CHECK(analytic::choose_search(analytic::Search::kAuto, real) == analytic::Search::kExhaustive);
}

TEST_CASE("local search on paper-example-1 (K = 5): the optimum of Table 1 from 15 of 84 policies",
          "[policy_search]") {
  const model::Model m = paper_example(5);
  const analytic::PolicyEvaluator evaluator(m);
  const analytic::ThresholdSearch all = analytic::optimize_thresholds(evaluator, 1);
  const analytic::LocalThresholdSearch local =
      analytic::optimize_thresholds_locally(evaluator, {.threads = 1});
  CHECK(local.best.policy == all.best.policy);
  CHECK(local.best.policy.levels() == std::vector<int>{3, 3, 3, 1, 1, 1});
  CHECK(local.best.cost == Approx(all.best.cost).epsilon(1e-9));
  CHECK(local.best.cost <= local.start.cost);
  CHECK(local.descents == 1);
  REQUIRE(local.constant.size() == all.constant.size());
  for (std::size_t r = 0; r < all.constant.size(); ++r)
    CHECK(local.constant[r] == Approx(all.constant[r]).epsilon(1e-9));

  // policies_solved counts each policy once: the list holds no repeats and every cost is the
  // policy's.
  CHECK(local.policies_solved == static_cast<std::int64_t>(local.solved.size()));
  CHECK(local.policies_solved == 15);  // the 10 grid vectors and the 5 neighbours of (-1,2,2)
  CHECK(local.policies_solved < all.policies_solved);
  std::set<std::vector<int>> distinct;
  for (const auto& s : local.solved) {
    distinct.insert(s.policy.levels());
    CHECK(s.cost == Approx(evaluator.evaluate(s.policy).measures.cost).epsilon(1e-12));
  }
  CHECK(distinct.size() == local.solved.size());
  // A local minimum: no neighbour costs less.
  for (const auto& j : analytic::threshold_neighbours(*local.best.policy.thresholds(), m.capacity))
    CHECK(evaluator.evaluate(model::Policy::from_thresholds(j, m.modes(), m.capacity))
              .measures.cost >= local.best.cost);
}

TEST_CASE(
    "local search with starts = 0 descends from every grid vector and still solves each policy "
    "once",
    "[policy_search]") {
  const model::Model m = paper_example(6);
  const analytic::PolicyEvaluator evaluator(m);
  const auto one = analytic::optimize_thresholds_locally(evaluator, {.threads = 1});
  const auto every = analytic::optimize_thresholds_locally(evaluator, {.threads = 1, .starts = 0});
  CHECK(one.descents == 1);
  CHECK(one.moves == 1);  // from the grid's (-1,3,3) to (-1,2,2)
  CHECK(every.descents == 10);
  CHECK(every.best.policy == one.best.policy);
  CHECK(every.policies_solved > one.policies_solved);
  CHECK(every.policies_solved <= analytic::threshold_policy_count(4, 6));
  std::set<std::vector<int>> distinct;
  for (const auto& s : every.solved) distinct.insert(s.policy.levels());
  CHECK(distinct.size() == every.solved.size());
  CHECK(every.policies_solved == static_cast<std::int64_t>(every.solved.size()));
}

TEST_CASE(
    "exhaustive search with warm starts: the optimum and costs of the cold search, any thread "
    "count",
    "[policy_search][warm_start]") {
  // The iterative solver (the one a warm start reaches) on 510 states; 165 policies.
  const model::Model m = paper_example(7);
  const analytic::PolicyEvaluator evaluator(m, Method::kIterative);
  const auto cold = analytic::optimize_thresholds(evaluator, {.threads = 1, .warm_start = false});
  const auto warm_1 = analytic::optimize_thresholds(evaluator, {.threads = 1, .warm_start = true});
  const auto warm_2 = analytic::optimize_thresholds(evaluator, {.threads = 2, .warm_start = true});
  CHECK(cold.policies_solved == 165);
  check_same_search(warm_1, cold, 1e-9);
  // The warm starts reach the solver: BiCGSTAB takes other paths from them.
  CHECK(warm_1.solver_iterations != cold.solver_iterations);
  // Fixed chunks make every warm start the same on any number of threads: the same bits.
  check_same_search(warm_2, warm_1, 0.0);
  CHECK(warm_2.solver_iterations == warm_1.solver_iterations);
  // And the block recursion finds the same optimum.
  const auto direct =
      analytic::optimize_thresholds(analytic::PolicyEvaluator(m, Method::kBlockRecursion), 2);
  check_same_search(cold, direct, 1e-9);
}

TEST_CASE(
    "local search: the same answer and the same policies solved on 1 and 2 threads, warm or cold",
    "[policy_search]") {
  const model::Model m = paper_example(8);
  const analytic::PolicyEvaluator evaluator(m, Method::kIterative);
  for (bool warm : {false, true}) {
    INFO("warm start " << warm);
    const auto one =
        analytic::optimize_thresholds_locally(evaluator, {.threads = 1, .warm_start = warm});
    const auto two =
        analytic::optimize_thresholds_locally(evaluator, {.threads = 2, .warm_start = warm});
    CHECK(one.best.policy == two.best.policy);
    CHECK(one.best.cost == two.best.cost);
    CHECK(one.moves == two.moves);
    REQUIRE(one.solved.size() == two.solved.size());
    for (std::size_t i = 0; i < one.solved.size(); ++i) {
      CHECK(one.solved[i].policy == two.solved[i].policy);
      CHECK(one.solved[i].cost == two.solved[i].cost);
    }
    CHECK(one.solver_iterations == two.solver_iterations);
  }
}

TEST_CASE("one mode: both searches solve the one policy there is", "[policy_search]") {
  const model::Model m{
      .name = "m/m/1/4",
      .capacity = 4,
      .arrivals = model::ArrivalModes(
          {model::Bmap({model::Matrix::Constant(1, 1, -1.0), model::Matrix::Constant(1, 1, 1.0)})}),
      .service = model::PhaseType::exponential(2.0),
      .obsolescence = {},
      .costs = {.loss = 1.0},
      .policy = {}};
  const analytic::PolicyEvaluator evaluator(m);
  const auto all = analytic::optimize_thresholds(evaluator, 2);
  const auto local = analytic::optimize_thresholds_locally(evaluator, {.threads = 2, .starts = 0});
  CHECK(all.policies_solved == 1);
  CHECK(local.policies_solved == 1);
  CHECK(local.moves == 0);
  CHECK(local.best.policy == all.best.policy);
  CHECK(local.best.cost == all.best.cost);
  CHECK(local.constant == all.constant);
}

TEST_CASE(
    "threshold_jumps: longer steps and the levels -1, 0, 1, 3, 7, ..., the others pushed along",
    "[analytic][search]") {
  const auto jumps = analytic::threshold_jumps({-1, 2, 20}, 20);
  const std::set<std::vector<int>> set(jumps.begin(), jumps.end());
  CHECK(set.size() == jumps.size());    // no repeats
  CHECK_FALSE(set.count({-1, 2, 20}));  // nor the vector itself
  CHECK(set.count({-1, 2, 3}));         // j_3 set to 3
  CHECK(set.count({-1, 2, 16}));        // j_3 moved down by 4
  CHECK(set.count({-1, 0, 0}));         // j_3 set to 0 pushes j_2 down with it
  CHECK(set.count({7, 7, 20}));         // j_1 set to 7 pushes j_2 up
  for (const auto& j : jumps) {
    CHECK(std::is_sorted(j.begin(), j.end()));
    CHECK(j.front() >= -1);
    CHECK(j.back() <= 20);
  }
}

TEST_CASE("local search in a long buffer leaves the plateau of seldom visited levels",
          "[analytic][search]") {
  // The paper's example with an exponential clock of the same mean and K = 400: one-level moves
  // from the start grid stopped at (-1, 2, 200), cost 68.53, where levels above ~20 are never
  // reached and moving the last threshold changes nothing.
  model::Model m = paper_example(400);
  m.obsolescence = model::PhaseType::exponential(0.2);
  const analytic::PolicyEvaluator evaluator(m);
  const auto local = analytic::optimize_thresholds_locally(evaluator, {.threads = 2});
  const double reference =
      evaluator.evaluate(model::Policy::from_thresholds({-1, 3, 3}, 4, 400)).measures.cost;
  CHECK(local.best.cost <= reference * (1 + 1e-12));
}
