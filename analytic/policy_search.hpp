#pragma once
// Optimisation of the cost (2) by enumeration (section 2: "easily solved on computer by enumeration").
#include <cstdint>
#include <optional>
#include <vector>

#include "analytic/policy_evaluation.hpp"

namespace crawlq::analytic {

struct PolicyCost {
  model::Policy policy;
  double cost = 0;
};

struct ModeSetBest {
  std::vector<int> modes;       // from most robots to fewest
  std::vector<int> thresholds;  // among these modes: levels 0..t_1 use modes[0], and so on
  PolicyCost best;
};

struct ThresholdSearch {
  PolicyCost best;                  // over every non-decreasing threshold vector
  std::vector<double> constant;     // constant[r-1]: r robots at every level
  std::vector<ModeSetBest> by_modes;  // one per non-empty mode set, in the order of Table 1
  std::int64_t policies_solved = 0;
};

struct LevelSearch {
  PolicyCost best;  // over every robots-per-level map
  std::optional<PolicyCost> best_threshold;  // the best map that is a threshold policy
  std::int64_t policies_solved = 0;
};

// Number of non-decreasing threshold vectors: C(K+N, N-1).
std::int64_t threshold_policy_count(int modes, int capacity);
// N^(K+1), or nothing beyond 2^62.
std::optional<std::int64_t> level_map_count(int modes, int capacity);

// Policies are solved on `threads` threads (0: all cores); every solve is single-threaded and the
// results are reduced in enumeration order, so the answer does not depend on the thread count.
ThresholdSearch optimize_thresholds(const PolicyEvaluator& evaluator, int threads = 0);
// Throws std::invalid_argument naming the count and `max_maps` when there are more maps than that.
LevelSearch optimize_levels(const PolicyEvaluator& evaluator, std::int64_t max_maps, int threads = 0);

}  // namespace crawlq::analytic
