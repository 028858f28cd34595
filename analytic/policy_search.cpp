#include "analytic/policy_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

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

// The cost of every policy, in the order given, solved on `threads` threads.
std::vector<double> costs_of(const PolicyEvaluator& evaluator, const std::vector<model::Policy>& policies,
                             int threads) {
  std::vector<double> costs(policies.size());
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto work = [&] {
    for (std::size_t i = next++; i < policies.size(); i = next++) {
      try {
        costs[i] = checked_cost(evaluator.evaluate(policies[i]));
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = policies.size();
      }
    }
  };
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = static_cast<int>(std::min<std::size_t>(threads, policies.size()));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return costs;
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

ThresholdSearch optimize_thresholds(const PolicyEvaluator& evaluator, int threads) {
  const model::Model& m = evaluator.model();
  const int n = m.modes(), capacity = m.capacity;
  std::optional<PolicyCost> best;
  std::vector<double> constant(n, 0.0);
  std::int64_t solved = 0;
  std::map<std::vector<int>, ModeSetBest, decltype(&table_order)> by_modes(&table_order);

  std::vector<model::Policy> policies;
  for (std::vector<int> j(n - 1, -1);;) {
    policies.push_back(model::Policy::from_thresholds(j, n, capacity));
    // Next non-decreasing vector in lexicographic order.
    int pos = n - 2;
    while (pos >= 0 && j[pos] == capacity) --pos;
    if (pos < 0) break;
    ++j[pos];
    for (int q = pos + 1; q < n - 1; ++q) j[q] = j[pos];
  }
  const std::vector<double> costs = costs_of(evaluator, policies, threads);
  for (std::size_t i = 0; i < policies.size(); ++i) {
    const model::Policy& policy = policies[i];
    const double cost = costs[i];
    ++solved;
    if (!best || cost < best->cost) best = PolicyCost{policy, cost};
    const std::vector<int> used = modes_used(policy);
    auto [entry, inserted] = by_modes.try_emplace(used, ModeSetBest{used, {}, {policy, cost}});
    if (inserted || cost < entry->second.best.cost) entry->second.best = PolicyCost{policy, cost};
    if (used.size() == 1) constant[used[0] - 1] = cost;
  }
  ThresholdSearch search{.best = *best, .constant = constant, .by_modes = {}, .policies_solved = solved};
  for (auto& [modes, set_best] : by_modes) {
    set_best.thresholds = thresholds_among(set_best.best.policy, modes);
    search.by_modes.push_back(set_best);
  }
  return search;
}

LevelSearch optimize_levels(const PolicyEvaluator& evaluator, std::int64_t max_maps, int threads) {
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
  std::vector<model::Policy> policies;
  for (std::vector<int> levels(capacity + 1, 1);;) {
    policies.push_back(model::Policy::from_levels(levels, n, capacity));
    int pos = capacity;
    while (pos >= 0 && levels[pos] == n) levels[pos--] = 1;
    if (pos < 0) break;
    ++levels[pos];
  }
  const std::vector<double> costs = costs_of(evaluator, policies, threads);
  for (std::size_t i = 0; i < policies.size(); ++i) {
    const double cost = costs[i];
    ++solved;
    if (!best || cost < best->cost) best = PolicyCost{policies[i], cost};
    if (policies[i].thresholds() && (!best_threshold || cost < best_threshold->cost))
      best_threshold = PolicyCost{policies[i], cost};
  }
  return LevelSearch{.best = *best, .best_threshold = best_threshold, .policies_solved = solved};
}

}  // namespace crawlq::analytic
