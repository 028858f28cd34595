// Tables 1, 2 and 5 of section 7, computed by the exact engine and set beside the printed values.
// Every difference beyond one unit of the printed last digit is reported (run the executable to see
// the tables). The test then pins down which rows differ and why, each reason checked from the
// paper's own numbers, so that a change in the engine or a new disagreement fails it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <catch2/catch.hpp>
#include <iostream>
#include <map>
#include <set>

#include "scenarios/scenario_loader.hpp"
#include "table2_check.hpp"
#include "validation/printed_tables.hpp"

using namespace crawlq;
using validation::agrees;

namespace {
const std::string kData = std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data/";

std::string label(const std::vector<int>& modes) {
  return fmt::format("{}", fmt::join(modes, " or "));
}

std::set<std::string> flagged_costs(const std::vector<validation::ModeSetComparison>& rows) {
  std::set<std::string> s;
  for (const auto& c : rows)
    if (!c.cost_agrees) s.insert(label(c.row.modes));
  return s;
}
}  // namespace

TEST_CASE("Table 1: the paper's first example, best policy per set of modes", "[paper][table1]") {
  const auto scenario = scenarios::load_scenario(kData + "paper-example-1.yaml");
  const analytic::PolicyEvaluator evaluator(scenario.model);
  const auto search = analytic::optimize_thresholds(evaluator);
  const auto rows = validation::compare_mode_sets(evaluator, search, validation::table1());
  std::cout << validation::report("Table 1 (K = 5): printed vs computed", rows) << '\n';

  // The optimum is printed right: 3 robots up to 2 pages, then 1, at 63.54.
  CHECK(search.best.policy.levels() == std::vector<int>{3, 3, 3, 1, 1, 1});
  CHECK(agrees("63.54", search.best.cost));

  // Three rows differ from interface.md's best-per-mode-set; each for a reason the paper shows.
  CHECK(flagged_costs(rows) ==
        std::set<std::string>{"3 or 2 or 1", "4 or 3 or 1", "4 or 3 or 2 or 1"});
  for (const auto& c : rows) {
    INFO(label(c.row.modes));
    const std::string name = label(c.row.modes);
    if (name == "3 or 2 or 1" || name == "4 or 3 or 2 or 1") {
      // The printed thresholds (2,2 and 0,2,2) leave mode 2 unused: the row is the best policy of a
      // smaller mode set, and its printed cost is that policy's cost.
      CHECK_FALSE(c.printed_policy_uses_every_mode);
      CHECK(c.printed_row_consistent);
    } else if (name == "4 or 3 or 1") {
      // A misprint: the printed thresholds 0,2 are the computed ones, but the printed cost 80.50 is
      // not their cost (67.52, which the paper prints for 4 or 3 or 2 or 1); it repeats the next
      // row's value, 4 or 3 or 2 at 0,2.
      CHECK(c.computed.thresholds == c.row.printed_thresholds);
      CHECK_FALSE(c.printed_row_consistent);
      CHECK(agrees("67.52", c.printed_policy_cost));
      CHECK(agrees(c.row.printed_cost, rows[13].computed.best.cost));
    } else {
      CHECK(c.computed.thresholds == c.row.printed_thresholds);
      CHECK(c.printed_row_consistent);
    }
  }
}

TEST_CASE("Table 5: the real-data example (K = 20)", "[paper][table5]") {
  const auto scenario = scenarios::load_scenario(kData + "paper-real-data.yaml");
  const analytic::PolicyEvaluator evaluator(scenario.model);
  const auto search = analytic::optimize_thresholds(evaluator);
  const auto rows = validation::compare_mode_sets(evaluator, search, validation::table5());
  std::cout << validation::report("Table 5 (real data, K = 20): printed vs computed", rows) << '\n';

  // The printed optimum [2,2,2] is the computed one, and so is every threshold of a row that uses
  // all its modes (the rows of three or four modes print thresholds that leave modes unused).
  CHECK(search.best.policy.thresholds() == std::vector<int>{2, 2, 2});
  for (const auto& c : rows) {
    INFO(label(c.row.modes));
    if (c.printed_policy_uses_every_mode) CHECK(c.computed.thresholds == c.row.printed_thresholds);
    // Every printed cost is below the computed one by 0.9 to 1.6 (0.2% of the cost); the inputs are
    // printed to two or three digits (S = diag(-0.0014, -0.2409); D_0 rounded, ERRATA.md) and the
    // sojourn term a V(1) ~ 120 is dominated by the rare services of rate 0.0014: changing that one
    // rate within its rounding interval moves C_1 by +-2.5. Flagged, not tuned.
    CHECK_FALSE(c.printed_row_consistent);
    const double gap = c.printed_policy_cost - std::stod(c.row.printed_cost);
    CHECK(gap > 0.9);
    CHECK(gap < 1.6);
  }
  CHECK(flagged_costs(rows).size() == 15);
}

TEST_CASE("Table 2: buffer sizes K = 1..9", "[paper][table2]") { testing::check_table2(1, 9); }
