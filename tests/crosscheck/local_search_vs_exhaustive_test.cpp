// The local search over threshold vectors against enumeration: on the paper's first example at
// every capacity it can enumerate here, and on the crosscheck's random models. Where the local
// search stops at a local minimum that is not the optimum, the instance is listed below, and the
// test checks what the search does promise: no neighbour of its answer costs less.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <catch2/catch.hpp>
#include <set>
#include <vector>

#include "analytic/control/policy_search.hpp"
#include "scenarios/scenario_loader.hpp"
#include "tests/crosscheck/random_models.hpp"

namespace crawlq::crosscheck {
namespace {

constexpr std::uint64_t kSeeds = 300;
// Random models (seeds 1..300, those with two modes or more) where the descent from the best grid
// vector ends at a local minimum that is not the optimum: 7 of 221. All are small (K <= 5); in four
// of them the start is already the local minimum (seed 50: N = 2, K = 2, cost not unimodal in j_1).
const std::set<std::uint64_t> kLocalOnly{50, 74, 96, 210, 215, 248, 254};

std::string thresholds_text(const model::Policy& policy) {
  return fmt::format("{}", fmt::join(*policy.thresholds(), ","));
}

// No neighbour of the local search's answer costs less (solved afresh, not from the search's
// costs).
void check_local_minimum(const analytic::PolicyEvaluator& evaluator,
                         const analytic::PolicyCost& best) {
  const model::Model& m = evaluator.model();
  for (const auto& j : analytic::threshold_neighbours(*best.policy.thresholds(), m.capacity)) {
    const double cost =
        evaluator.evaluate(model::Policy::from_thresholds(j, m.modes(), m.capacity)).measures.cost;
    INFO("neighbour " << fmt::format("{}", fmt::join(j, ",")) << " costs " << cost);
    CHECK(cost >= best.cost);
  }
}

TEST_CASE("local search finds the optimum of paper-example-1 at K = 1..10",
          "[policy_search][local]") {
  model::Model m =
      scenarios::load_scenario(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml").model;
  for (int capacity = 1; capacity <= 10; ++capacity) {
    m.capacity = capacity;
    const analytic::PolicyEvaluator evaluator(m);
    const auto all = analytic::optimize_thresholds(evaluator, 0);
    const auto local = analytic::optimize_thresholds_locally(evaluator);
    INFO("K = " << capacity << ": local " << thresholds_text(local.best.policy) << " "
                << local.best.cost << ", exhaustive " << thresholds_text(all.best.policy) << " "
                << all.best.cost);
    CHECK(local.best.policy == all.best.policy);
    CHECK(local.best.cost == Approx(all.best.cost).epsilon(1e-9));
    CHECK(local.policies_solved <= 21);  // of C(K+4, 3): 21 of 364 at K = 10
    CHECK(local.policies_solved == static_cast<std::int64_t>(local.solved.size()));
  }
}

TEST_CASE("local search on random models: the optimum, except at the listed local minima",
          "[policy_search][local]") {
  std::set<std::uint64_t> local_only, local_only_from_every_start;
  int models = 0;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const model::Model m = random_model(seed);
    if (m.modes() < 2) continue;
    ++models;
    const analytic::PolicyEvaluator evaluator(m);
    const auto all = analytic::optimize_thresholds(evaluator, 1);
    const auto local = analytic::optimize_thresholds_locally(evaluator, {.threads = 1});
    INFO("seed " << seed << ": local " << thresholds_text(local.best.policy) << " "
                 << local.best.cost << " (start " << thresholds_text(local.start.policy) << ", "
                 << local.moves << " moves)"
                 << ", exhaustive " << thresholds_text(all.best.policy) << " " << all.best.cost
                 << "\n"
                 << describe(m));
    CHECK(local.best.cost >= all.best.cost * (1 - 1e-9));
    CHECK(local.policies_solved <= all.policies_solved);
    check_local_minimum(evaluator, local.best);
    // Two policies can tie to the last bit (a level the chain never reaches under either): either
    // is optimal, and which one a search reports depends on rounding only.
    const auto missed = [&](const analytic::PolicyCost& found) {
      return !(found.policy == all.best.policy) && found.cost > all.best.cost * (1 + 1e-12);
    };
    if (missed(local.best)) local_only.insert(seed);
    // Descending from every grid vector escapes these local minima (at the price of more solves).
    const auto every =
        analytic::optimize_thresholds_locally(evaluator, {.threads = 1, .starts = 0});
    check_local_minimum(evaluator, every.best);
    if (missed(every.best)) local_only_from_every_start.insert(seed);
  }
  CHECK(models == 221);
  INFO("seeds where the local search missed the optimum: " << fmt::format(
           "{}", fmt::join(local_only, ", ")));
  CHECK(local_only == kLocalOnly);
  CHECK(local_only_from_every_start.empty());
}

}  // namespace
}  // namespace crawlq::crosscheck
