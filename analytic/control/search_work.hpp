#pragma once
// What a policy search solves, counted before it starts: its policies and the work of each, so that
// a search that cannot end in reasonable time (thousands of robots, a long buffer) is refused with
// its count rather than run for hours or build its candidates in memory first.
#include <cstdint>
#include <string>

#include "analytic/control/search_kinds.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

// A policy's work, in states: its chain's, kPolicyOverheadStates for its measures and sojourn
// means, and this many for each level: the block recursion and the tagged page's chain handle a
// level's small blocks one at a time (paper-real-data at K = 100,000: 400,002 states, 5 s a policy,
// 12 us a state where the paper's chains take 1-3).
inline constexpr double kLevelOverheadStates = 10;
// The most work one search may take: a minute or so on one core (the paper's example at K = 18 by
// the local search; paper-real-data up to K of about 20,000), twice what `auto` enumerates.
inline constexpr double kMostSearchWork = 2e7;

// One policy's work on `model`'s chain with `environment_factor` times its arrival phases (a memory
// policy: the modes).
// The columns of a table class's rows: 1 per level, the arrival phases, or the modes in force
// (table_search.cpp's layout).
int table_columns(const model::Model& model, TableClass table_class);

double policy_work(const model::Model& model, double environment_factor = 1);
// C(K+N, N-1) as a double, exact below 2^53 and never overflowing.
double threshold_vector_count(int modes, int capacity);

struct SearchWork {
  double policies = 0;  // solved at least (about, for a descent)
  double work = 0;      // their work, in policy_work's unit
  SearchWork& operator+=(const SearchWork& other) {
    policies += other.policies;
    work += other.work;
    return *this;
  }
};

// The threshold search `search` resolves to (choose_search): every vector for the enumeration; for
// the local search the start grid and one round of moves around its best (with the jumps beyond
// kPlateauCapacity), the least it solves before it can stop at a local minimum.
SearchWork least_threshold_work(const model::Model& model, Search search);
// Every level map: what --class levels solves.
SearchWork level_map_work(const model::Model& model);
// Whether compare_classes enumerates the level maps (within max_maps and kExhaustiveWork) rather
// than descending from the best threshold policy.
bool enumerates_level_maps(const model::Model& model, std::int64_t max_maps);
// A table class (optimize_table_class with kExhaustiveTables): every table, or the start and one
// round of tables one entry away; the threshold search it starts from is not counted.
SearchWork least_table_work(const model::Model& model, TableClass table_class,
                            std::int64_t max_exhaustive);
// The best of a class of policy_class_names() ("all": compare_classes, every class), as
// best_of_class finds it, the threshold search counted once. `max_maps` as
// ClassComparisonOptions's.
SearchWork least_class_work(const model::Model& model, const std::string& policy_class,
                            Search search, std::int64_t max_maps);

}  // namespace crawlq::analytic
