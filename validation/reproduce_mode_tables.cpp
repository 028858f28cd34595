// Tables 1 and 5: the best threshold policy for each set of modes, printed beside computed.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "validation/paper_scenarios.hpp"
#include "validation/printed_tables.hpp"
#include "validation/reproduce_sections.hpp"

namespace crawlq::validation {

namespace {

std::string thresholds_text(const std::vector<int>& t) {
  return t.empty() ? "-" : fmt::format("{}", fmt::join(t, ","));
}

// Why a row of a mode-set table differs: each reason read off the numbers themselves. `systematic`
// is a reason that applies to every row of the table (rounded inputs), empty when there is none.
std::string mode_set_note(const ModeSetComparison& c, const std::string& systematic) {
  const std::string printed_cost = c.printed_row_consistent
                                       ? "the printed value"
                                       : fmt::format("{:.2f} here", c.printed_policy_cost);
  std::string note;
  if (!c.printed_policy_uses_every_mode)
    note = fmt::format(
        "the printed thresholds {} leave a mode unused: they describe the best policy of a smaller set of modes "
        "(cost: {}); interface.md asks every mode of the set to be used",
        thresholds_text(c.row.printed_thresholds), printed_cost);
  else if (!systematic.empty())
    note = fmt::format("the printed policy (thresholds {}) is the computed one",
                       thresholds_text(c.row.printed_thresholds));
  else if (c.computed.thresholds == c.row.printed_thresholds)
    note = fmt::format(
        "misprint: the printed thresholds are the computed ones, but their cost is {:.2f}, not {}",
        c.printed_policy_cost, c.row.printed_cost);
  else
    note = fmt::format("the printed policy (thresholds {}) costs {}",
                       thresholds_text(c.row.printed_thresholds), printed_cost);
  return systematic.empty() ? note : note + "; " + systematic;
}

// `rounding`: why the printed inputs may shift every cost of the table, empty when they do not.
void mode_set_table(Reproduction& out, const PolicySimulation& simulation, const std::string& table,
                    const model::Model& m, const std::vector<ModeSetRow>& printed,
                    const std::string& rounding) {
  const analytic::PolicyEvaluator evaluator(m);
  const auto search = analytic::optimize_thresholds(evaluator, out.options.threads);
  const auto comparisons = compare_mode_sets(evaluator, search, printed);
  std::string common_note;
  if (!rounding.empty()) {
    // How far the printed policies' costs here are from the printed costs, over the whole table.
    double least = HUGE_VAL, most = -HUGE_VAL;
    for (const auto& c : comparisons) {
      least = std::min(least, c.printed_policy_cost - std::stod(c.row.printed_cost));
      most = std::max(most, c.printed_policy_cost - std::stod(c.row.printed_cost));
    }
    common_note =
        fmt::format("the printed policies cost {:.2f} to {:.2f} more here than printed: {}", least,
                    most, rounding);
  }
  std::map<std::vector<int>, sim::Interval> simulated;  // by levels: rows often share a policy
  for (const auto& c : comparisons) {
    ReproducedRow row;
    row.table = table;
    row.label = fmt::format("{}", fmt::join(c.row.modes, " or "));
    row.printed = c.row.printed_cost;
    row.computed = c.computed.best.cost;
    row.agrees = c.cost_agrees;
    row.printed_policy = thresholds_text(c.row.printed_thresholds);
    row.computed_policy = thresholds_text(c.computed.thresholds);
    if (!row.agrees) {
      row.note = mode_set_note(c, common_note);
      const auto levels = c.computed.best.policy.levels();
      if (!simulated.count(levels)) simulated[levels] = simulation.cost(m, c.computed.best.policy);
      row.simulator = check_value(fmt::format("cost of levels {}", fmt::join(levels, " ")),
                                  simulated[levels], row.computed, std::stod(row.printed));
    }
    out.rows.push_back(std::move(row));
  }
}

}  // namespace

void reproduce_table1(Reproduction& out, const PolicySimulation& simulation) {
  mode_set_table(out, simulation, "1", paper_example().model, table1(), "");
}

void reproduce_table5(Reproduction& out, const PolicySimulation& simulation) {
  mode_set_table(
      out, simulation, "5", paper_real_data().model, table5(),
      "the inputs are printed rounded (S = diag(-0.0014, -0.2409), D_0 repaired as ERRATA.md says) and the "
      "sojourn term of the cost rests on the rare services of rate 0.0014");
}

model::Policy two_mode_policy(int high, int low, int j, int capacity) {
  std::vector<int> levels(capacity + 1, low);
  for (int level = 0; level <= std::min(j, capacity); ++level) levels[level] = high;
  return model::Policy::from_levels(levels, 4, capacity);
}

SimulatorCheck check_value(const std::string& what, const sim::Interval& interval, double computed,
                           double printed) {
  SimulatorCheck check;
  check.what = what;
  check.interval = interval;
  check.supports_computed = covers(interval, computed);
  check.supports_printed = covers(interval, printed);
  if (check.supports_computed && !check.supports_printed)
    check.verdict = "the simulator supports the computed value";
  else if (check.supports_computed)
    check.verdict = "the interval holds both values: the simulator cannot tell them apart";
  else if (check.supports_printed)
    check.verdict = "the simulator supports the printed value: the exact engine is in question";
  else
    check.verdict = fmt::format(
        "the interval holds neither value; the computed one is {:.1f} half-widths away (a 95% "
        "interval misses one time in twenty)",
        std::abs(interval.mean - computed) / interval.half_width);
  return check;
}

}  // namespace crawlq::validation
