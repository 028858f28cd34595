#include "validation/printed_tables.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace crawlq::validation {

double print_unit(const std::string& printed) {
  const auto dot = printed.find('.');
  if (dot == std::string::npos) return 1.0;
  return std::pow(10.0, -static_cast<double>(printed.size() - dot - 1));
}

bool agrees(const std::string& printed, double computed) {
  return std::abs(std::stod(printed) - computed) <= print_unit(printed) * (1 + 1e-9);
}

model::Policy printed_policy(const ModeSetRow& row, int total_modes, int capacity) {
  std::vector<int> levels;
  for (int level = 0; level <= capacity; ++level) {
    std::size_t q = 0;
    while (q < row.printed_thresholds.size() && level > row.printed_thresholds[q]) ++q;
    levels.push_back(row.modes[q]);
  }
  return model::Policy::from_levels(levels, total_modes, capacity);
}

std::vector<ModeSetComparison> compare_mode_sets(const analytic::PolicyEvaluator& evaluator,
                                                 const analytic::ThresholdSearch& search,
                                                 const std::vector<ModeSetRow>& rows) {
  const model::Model& m = evaluator.model();
  std::vector<ModeSetComparison> out;
  for (const auto& row : rows) {
    const auto found =
        std::find_if(search.by_modes.begin(), search.by_modes.end(),
                     [&](const analytic::ModeSetBest& b) { return b.modes == row.modes; });
    if (found == search.by_modes.end())
      throw std::logic_error(fmt::format("no computed entry for modes {}", row.modes));
    const model::Policy policy = printed_policy(row, m.modes(), m.capacity);
    std::vector<int> used = policy.levels();
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    ModeSetComparison c{.row = row,
                        .printed_policy_cost = evaluator.evaluate(policy).measures.cost,
                        .computed = *found,
                        .printed_policy_uses_every_mode = used.size() == row.modes.size()};
    c.cost_agrees = agrees(row.printed_cost, found->best.cost);
    c.printed_row_consistent = agrees(row.printed_cost, c.printed_policy_cost);
    out.push_back(c);
  }
  return out;
}

std::string report(const std::string& title, const std::vector<ModeSetComparison>& rows) {
  std::string s =
      fmt::format("{}\n{:<18} {:>10} {:>10} {:>14} | {:>10} {:>12}  flags\n", title, "robots",
                  "printed j", "printed C", "C of printed j", "best j", "best C");
  for (const auto& c : rows) {
    std::string flags;
    if (!c.cost_agrees) flags += " cost-differs";
    if (!c.printed_row_consistent) flags += " printed-C-is-not-the-cost-of-printed-j";
    if (!c.printed_policy_uses_every_mode) flags += " printed-j-leaves-a-mode-unused";
    s += fmt::format("{:<18} {:>10} {:>10} {:>14.4f} | {:>10} {:>12.4f} {}\n",
                     fmt::format("{}", fmt::join(c.row.modes, " or ")),
                     c.row.printed_thresholds.empty()
                         ? "-"
                         : fmt::format("{}", fmt::join(c.row.printed_thresholds, ",")),
                     c.row.printed_cost, c.printed_policy_cost,
                     c.computed.thresholds.empty()
                         ? "-"
                         : fmt::format("{}", fmt::join(c.computed.thresholds, ",")),
                     c.computed.best.cost, flags.empty() ? " ok" : flags);
  }
  return s;
}

std::vector<ModeSetRow> table1() {
  return {{{1}, {}, "149.91"},
          {{2}, {}, "110.0"},
          {{3}, {}, "89.40"},
          {{4}, {}, "130.31"},
          {{2, 1}, {2}, "103.54"},
          {{3, 1}, {2}, "63.54"},
          {{4, 1}, {1}, "74.47"},
          {{3, 2}, {2}, "76.21"},
          {{4, 2}, {1}, "86.13"},
          {{4, 3}, {0}, "94.14"},
          {{3, 2, 1}, {2, 2}, "63.54"},
          {{4, 2, 1}, {1, 2}, "73.69"},
          {{4, 3, 1}, {0, 2}, "80.50"},
          {{4, 3, 2}, {0, 2}, "80.50"},
          {{4, 3, 2, 1}, {0, 2, 2}, "67.52"}};
}

std::vector<ModeSetRow> table5() {
  return {{{1}, {}, "666.28"},
          {{2}, {}, "657.07"},
          {{3}, {}, "639.03"},
          {{4}, {}, "621.25"},
          {{2, 1}, {0}, "624.97"},
          {{3, 1}, {0}, "591.72"},
          {{4, 1}, {2}, "563.51"},
          {{3, 2}, {1}, "622.81"},
          {{4, 2}, {2}, "593.29"},
          {{4, 3}, {3}, "609.66"},
          {{3, 2, 1}, {0, 0}, "591.72"},
          {{4, 2, 1}, {2, 2}, "563.51"},
          {{4, 3, 1}, {2, 2}, "563.51"},
          {{4, 3, 2}, {2, 2}, "593.29"},
          {{4, 3, 2, 1}, {2, 2, 2}, "563.51"}};
}

std::vector<Table2Row> table2() {
  return {{1, 0, "147.5", "244.7", "233.4", "187.2", "258.8", "21.0"},
          {2, 1, "96.8", "199.2", "174.0", "128.8", "194.4", "24.8"},
          {3, 2, "79.1", "172.6", "140.3", "105.4", "160.0", "24.9"},
          {4, 2, "68.3", "158.1", "121.7", "94.7", "140.6", "27.85"},
          {5, 2, "63.5", "149.9", "110.0", "89.4", "130.3", "28.9"},
          {6, 3, "60.8", "144.7", "102.3", "86.7", "124.1", "29.8"},
          {7, 3, "59.3", "141.6", "97.2", "85.5", "120.5", "30.6"},
          {8, 3, "58.4", "138.5", "93.7", "85.0", "118.3", "31.2"},
          {9, 3, "57.8", "137.9", "91.3", "84.9", "117.1", "31.8"},
          {10, 3, "57.5", "137.0", "89.7", "85.0", "116.5", "32.3"},
          {20, 3, "57.2", "137.0", "86.3", "87.2", "120.0", "33.7"},
          {30, 3, "57.2", "137.0", "86.3", "87.4", "123.6", "33.7"}};
}

}  // namespace crawlq::validation
