#pragma once
// The printed results of section 7 (Tables 1, 2 and 5), set beside what the exact engine computes.
// Printed numbers are claims to check: a row is flagged when it differs from the computed value by
// more than one unit of its last printed digit (the paper truncates some values, rounds others).
#include <string>
#include <vector>

#include "analytic/control/policy_search.hpp"

namespace crawlq::validation {

// One unit of the last digit of a number as printed ("89.40" -> 0.01).
double print_unit(const std::string& printed);
bool agrees(const std::string& printed, double computed);

struct ModeSetRow {
  std::vector<int> modes;               // as printed, turned to most robots first
  std::vector<int> printed_thresholds;  // among `modes`, as printed (may leave a mode unused)
  std::string printed_cost;
};

// The policy a printed row describes: levels 0..t_1 run modes[0], t_1+1..t_2 modes[1], and so on,
// with non-strict thresholds as the paper wrote them.
model::Policy printed_policy(const ModeSetRow& row, int total_modes, int capacity);

struct ModeSetComparison {
  ModeSetRow row;
  double printed_policy_cost = 0;  // the printed thresholds, evaluated here
  analytic::ModeSetBest computed;  // best policy using exactly these modes (interface.md)
  bool printed_policy_uses_every_mode = true;
  bool cost_agrees = false;             // printed cost vs computed best
  bool printed_row_consistent = false;  // printed cost vs the cost of the printed policy
};

std::vector<ModeSetComparison> compare_mode_sets(const analytic::PolicyEvaluator& evaluator,
                                                 const analytic::ThresholdSearch& search,
                                                 const std::vector<ModeSetRow>& rows);
// A readable side-by-side table, every flagged row marked.
std::string report(const std::string& title, const std::vector<ModeSetComparison>& rows);

// Table 1 (paper-example-1, K = 5) and Table 5 (paper-real-data, K = 20) as printed.
std::vector<ModeSetRow> table1();
std::vector<ModeSetRow> table5();

// Table 2: the paper's example with capacity K; j* is the threshold of the optimal "3 or 1" policy.
// Rows K = 1..10, 20 and 30 as printed (the text says K > 30 changes little).
struct Table2Row {
  int capacity;
  int printed_j;
  std::string c_star, c1, c2, c3, c4, relative_profit;
};
std::vector<Table2Row> table2();

}  // namespace crawlq::validation
