#pragma once
// The policy classes between level maps and full-state policies, searched by exact evaluation:
// phase-aware policies (robots by level and arrival phase) and memory policies (the next mode by
// level and mode in force). Both are tables of entries in 1..N; the search enumerates every table
// while their count allows, and otherwise descends from the best threshold policy: each round
// evaluates every table one entry away (side by side) and moves to the cheapest that costs less,
// until none does (a local minimum, as the thresholds' local search).
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/control/policy_search.hpp"
#include "analytic/control/search_kinds.hpp"
#include "analytic/control/work_meter.hpp"

namespace crawlq::analytic {

const char* table_class_name(TableClass table_class);

struct TableClassSearch {
  std::optional<PolicyEvaluation> best;  // always set
  bool exhaustive = false;               // every table solved: the class's optimum
  std::int64_t tables = 0;               // in the class (saturates at INT64_MAX)
  std::int64_t policies_solved = 0;
  int moves = 0;  // improving moves of the descent
};

// The policy of a table of `table_class` for `model` (entries by level, then column).
model::ControlPolicy table_policy(TableClass table_class, const model::Model& model,
                                  const std::vector<int>& entries);

// `start`: the threshold (or any level) policy the descent starts from. Tables the exact engine
// refuses (a memory table with several long runs) are passed over. Throws std::runtime_error when a
// solve fails.
// The tables one entry away from the current one are made as they are solved, never all held at
// once. `meter`: charged with each round (policy_work each); nullptr: no bound.
TableClassSearch optimize_table_class(const PolicyEvaluator& evaluator, TableClass table_class,
                                      const model::Policy& start, std::int64_t max_exhaustive,
                                      int threads, WorkMeter* meter = nullptr);

}  // namespace crawlq::analytic
