#include "analytic/policy_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace crawlq::analytic {

namespace {

// The modes a level map uses, from most robots to fewest.
std::vector<int> modes_used(const model::Policy& policy) {
  std::vector<int> used = policy.levels();
  std::sort(used.begin(), used.end(), std::greater<>());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  return used;
}

// Thresholds among the used modes only: t_q is the last level served by modes[q-1].
std::vector<int> thresholds_among(const model::Policy& policy, const std::vector<int>& modes) {
  std::vector<int> t;
  for (std::size_t q = 0; q + 1 < modes.size(); ++q) {
    int last = -1;
    for (int level = 0; level <= policy.capacity(); ++level)
      if (policy.robots(level) == modes[q]) last = level;
    t.push_back(last);
  }
  return t;
}

// Table 1's order: by the number of modes, then lexicographically on the modes in increasing order.
bool table_order(const std::vector<int>& a, const std::vector<int>& b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return std::lexicographical_compare(a.rbegin(), a.rend(), b.rbegin(), b.rend());
}

double checked_cost(const PolicyEvaluation& e) {
  if (e.stationary.summary.status != SolverStatus::kConverged)
    throw std::runtime_error("stationary solve failed: " + e.stationary.summary.message);
  return e.cost;
}

}  // namespace

std::int64_t threshold_policy_count(int modes, int capacity) {
  // Non-decreasing (N-1)-vectors over K+2 values: C(K+1+N-1, N-1).
  const int n = capacity + modes, k = modes - 1;
  std::int64_t c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

std::optional<std::int64_t> level_map_count(int modes, int capacity) {
  std::int64_t c = 1;
  for (int level = 0; level <= capacity; ++level) {
    if (c > (std::int64_t{1} << 62) / modes) return std::nullopt;
    c *= modes;
  }
  return c;
}

ThresholdSearch optimize_thresholds(const PolicyEvaluator& evaluator) {
  const model::Model& m = evaluator.model();
  const int n = m.modes(), capacity = m.capacity;
  std::optional<PolicyCost> best;
  std::vector<double> constant(n, 0.0);
  std::int64_t solved = 0;
  std::map<std::vector<int>, ModeSetBest, decltype(&table_order)> by_modes(&table_order);

  std::vector<int> j(n - 1, -1);
  while (true) {
    const model::Policy policy = model::Policy::from_thresholds(j, n, capacity);
    const double cost = checked_cost(evaluator.evaluate(policy));
    ++solved;
    if (!best || cost < best->cost) best = PolicyCost{policy, cost};
    const std::vector<int> used = modes_used(policy);
    auto [entry, inserted] = by_modes.try_emplace(used, ModeSetBest{used, {}, {policy, cost}});
    if (inserted || cost < entry->second.best.cost) entry->second.best = PolicyCost{policy, cost};
    if (used.size() == 1) constant[used[0] - 1] = cost;
    // Next non-decreasing vector in lexicographic order.
    int pos = n - 2;
    while (pos >= 0 && j[pos] == capacity) --pos;
    if (pos < 0) break;
    ++j[pos];
    for (int q = pos + 1; q < n - 1; ++q) j[q] = j[pos];
  }
  ThresholdSearch search{.best = *best, .constant = constant, .by_modes = {}, .policies_solved = solved};
  for (auto& [modes, set_best] : by_modes) {
    set_best.thresholds = thresholds_among(set_best.best.policy, modes);
    search.by_modes.push_back(set_best);
  }
  return search;
}

LevelSearch optimize_levels(const PolicyEvaluator& evaluator, std::int64_t max_maps) {
  const model::Model& m = evaluator.model();
  const int n = m.modes(), capacity = m.capacity;
  const auto count = level_map_count(n, capacity);
  if (!count || *count > max_maps)
    throw std::invalid_argument(fmt::format(
        "{} modes over {} levels make {} level maps, more than the {} this search enumerates; use "
        "--class thresholds ({} policies)",
        n, capacity + 1, count ? fmt::format("{}", *count) : fmt::format("{}^{}", n, capacity + 1),
        max_maps, threshold_policy_count(n, capacity)));
  std::optional<PolicyCost> best, best_threshold;
  std::int64_t solved = 0;
  std::vector<int> levels(capacity + 1, 1);
  while (true) {
    const model::Policy policy = model::Policy::from_levels(levels, n, capacity);
    const double cost = checked_cost(evaluator.evaluate(policy));
    ++solved;
    if (!best || cost < best->cost) best = PolicyCost{policy, cost};
    if (policy.thresholds() && (!best_threshold || cost < best_threshold->cost))
      best_threshold = PolicyCost{policy, cost};
    int pos = capacity;
    while (pos >= 0 && levels[pos] == n) levels[pos--] = 1;
    if (pos < 0) break;
    ++levels[pos];
  }
  return LevelSearch{.best = *best, .best_threshold = best_threshold, .policies_solved = solved};
}

}  // namespace crawlq::analytic
