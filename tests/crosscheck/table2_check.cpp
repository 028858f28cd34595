// Table 2 of section 7 (the paper's example at capacities K), shared by the regular and slow tests.
#include "table2_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <iostream>
#include <set>

#include "scenarios/scenario_loader.hpp"
#include "validation/printed_tables.hpp"

using namespace crawlq;
using validation::agrees;

namespace {

const std::string kData = std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data/";

model::Model with_capacity(const model::Model& base, int capacity) {
  model::Model m = base;
  m.capacity = capacity;
  m.policy.reset();
  return m;
}

struct Table2Check {
  std::set<std::string> flags;
  std::string line;
};

// Computes one row of Table 2 and checks the reason of each flag it raises.
Table2Check check_table2_row(const model::Model& base, const validation::Table2Row& printed) {
  const model::Model m = with_capacity(base, printed.capacity);
  const analytic::PolicyEvaluator evaluator(m);
  const auto search = analytic::optimize_thresholds(evaluator);
  double best_constant = search.constant[0];
  for (double c : search.constant) best_constant = std::min(best_constant, c);
  const double profit = 100.0 * (1.0 - search.best.cost / best_constant);

  // The paper: "in all cases the optimal control only uses the modes with one and three robots".
  const auto levels = search.best.policy.levels();
  const int j = static_cast<int>(std::count(levels.begin(), levels.end(), 3)) - 1;
  CHECK(std::count(levels.begin(), levels.end(), 3) + std::count(levels.begin(), levels.end(), 1) ==
        static_cast<long>(levels.size()));

  Table2Check out;
  const std::string k = fmt::format("K={} ", printed.capacity);
  if (j != printed.printed_j) out.flags.insert(k + "j*");
  if (!agrees(printed.c_star, search.best.cost)) out.flags.insert(k + "C*");
  const std::string* c[] = {&printed.c1, &printed.c2, &printed.c3, &printed.c4};
  for (int r = 0; r < 4; ++r)
    if (!agrees(*c[r], search.constant[r])) out.flags.insert(fmt::format("{}C{}", k, r + 1));
  if (!agrees(printed.relative_profit, profit)) out.flags.insert(k + "R");

  // Why each flag: checked from the paper's own printed numbers.
  if (out.flags.count(k + "j*")) {
    // The printed j* does not give the printed C*; the computed j* does.
    std::vector<int> printed_levels(m.capacity + 1, 1);
    for (int level = 0; level <= std::min(printed.printed_j, m.capacity); ++level)
      printed_levels[level] = 3;
    const double printed_j_cost =
        evaluator.evaluate(model::Policy::from_levels(printed_levels, 4, m.capacity)).measures.cost;
    CHECK_FALSE(agrees(printed.c_star, printed_j_cost));
    CHECK(agrees(printed.c_star, search.best.cost));
  }
  if (out.flags.count(k + "R")) {
    // The printed R is not 1 - C*/min C_r of the printed C* and C_r either.
    const double printed_min = std::min({std::stod(printed.c1), std::stod(printed.c2),
                                         std::stod(printed.c3), std::stod(printed.c4)});
    CHECK_FALSE(
        agrees(printed.relative_profit, 100.0 * (1.0 - std::stod(printed.c_star) / printed_min)));
  }
  if (out.flags.count(k + "C1")) {
    // The exact engine is self-consistent here: the assembled generator solved directly agrees.
    const analytic::PolicyEvaluator direct(m, analytic::Method::kSparseLu);
    const double c1 = direct.evaluate(model::Policy::constant(1, 4, m.capacity)).measures.cost;
    CHECK(c1 == Approx(search.constant[0]).epsilon(1e-10));
  }
  out.line = fmt::format(
      "K={:>2}  j* {} / {}   C* {} / {:.4f}   C1..C4 {} {} {} {} / {:.4f} {:.4f} {:.4f} {:.4f}   R {} / {:.2f}",
      printed.capacity, printed.printed_j, j, printed.c_star, search.best.cost, printed.c1,
      printed.c2, printed.c3, printed.c4, search.constant[0], search.constant[1],
      search.constant[2], search.constant[3], printed.relative_profit, profit);
  return out;
}

// Documented disagreements: R at K=1 (inconsistent with its own row), j* at K=3, 6, 7 (the printed
// j* does not reach the printed C*), C_1 from K=8 on (to be settled by the simulator).
const std::set<std::string> kExpectedTable2Flags{"K=1 R",  "K=3 j*", "K=6 j*", "K=7 j*",
                                                 "K=8 C1", "K=9 C1", "K=10 C1"};

}  // namespace

void testing::check_table2(int from, int to) {
  const auto scenario = scenarios::load_scenario(kData + "paper-example-1.yaml");
  std::set<std::string> flags, expected;
  std::cout << "Table 2 (paper example, capacity K): printed / computed\n";
  for (const auto& row : validation::table2()) {
    if (row.capacity < from || row.capacity > to) continue;
    INFO("K = " << row.capacity);
    const auto result = check_table2_row(scenario.model, row);
    std::cout << result.line << (result.flags.empty() ? "" : "   FLAGGED") << '\n';
    flags.insert(result.flags.begin(), result.flags.end());
    for (const auto& f : kExpectedTable2Flags)
      if (f.rfind(fmt::format("K={} ", row.capacity), 0) == 0) expected.insert(f);
  }
  CHECK(flags == expected);
}
