#include "analytic/control/policy_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <thread>

#include "analytic/control/search_work.hpp"
#include "analytic/parallel_for.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "model/thread_count.hpp"

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
    throw StationaryFailure(e.stationary.summary);
  return e.measures.cost;
}

struct Costs {
  std::vector<double> costs;
  std::int64_t iterations = 0;
};

// The cost of every policy, in the order given. Consecutive chunks of `chunk` policies are solved
// on `threads` threads, each chunk in order, each solve warm-started from the one before it in its
// chunk when `warm`: the chunks do not depend on the thread count, so neither do the costs.
Costs costs_of(const PolicyEvaluator& evaluator, const std::vector<model::Policy>& policies,
               int threads, std::size_t chunk, bool warm) {
  Costs out{.costs = std::vector<double>(policies.size()), .iterations = 0};
  std::vector<std::int64_t> iterations(policies.size(), 0);
  const std::size_t chunks = (policies.size() + chunk - 1) / chunk;
  parallel_for(chunks, threads, [&](std::size_t c) {
    Eigen::VectorXd previous;
    for (std::size_t i = c * chunk; i < std::min(policies.size(), (c + 1) * chunk); ++i) {
      PolicyEvaluation e =
          evaluator.evaluate(policies[i], warm && previous.size() > 0 ? &previous : nullptr);
      out.costs[i] = checked_cost(e);
      iterations[i] = e.stationary.summary.iterations;
      if (warm) previous = std::move(e.stationary.probabilities);
    }
  });
  for (std::int64_t n : iterations) out.iterations += n;
  return out;
}

// Every non-decreasing vector of n - 1 entries over `values` (increasing), in lexicographic order.
std::vector<std::vector<int>> non_decreasing_vectors(int n, const std::vector<int>& values) {
  std::vector<std::vector<int>> all;
  const int last = static_cast<int>(values.size()) - 1;
  for (std::vector<int> at(std::max(0, n - 1), 0);;) {
    std::vector<int> j;
    for (int a : at) j.push_back(values[a]);
    all.push_back(j);
    int pos = n - 2;
    while (pos >= 0 && at[pos] == last) --pos;
    if (pos < 0) break;
    ++at[pos];
    for (int q = pos + 1; q < n - 1; ++q) at[q] = at[pos];
  }
  return all;
}

std::vector<int> all_values(int capacity) {
  std::vector<int> values;
  for (int v = -1; v <= capacity; ++v) values.push_back(v);
  return values;
}

}  // namespace

std::int64_t threshold_policy_count(int modes, int capacity) {
  // Non-decreasing (N-1)-vectors over K+2 values: C(K+1+N-1, N-1) = C(K+N, K+1). Each partial
  // product is C(n-k+i, i), exact and growing with i, so the first past INT64_MAX ends it; the
  // division goes first (i / g divides n-k+i once c and i share g) so that nothing overflows.
  constexpr std::int64_t kMost = std::numeric_limits<std::int64_t>::max();
  const std::int64_t n = std::int64_t{capacity} + modes, k = std::min(modes - 1, capacity + 1);
  std::int64_t c = 1;
  for (std::int64_t i = 1; i <= k; ++i) {
    const std::int64_t g = std::gcd(c, i), factor = (n - k + i) / (i / g);
    if (c / g > kMost / factor) return kMost;
    c = c / g * factor;
  }
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
  return optimize_thresholds(evaluator, ThresholdSearchOptions{.threads = threads});
}

ThresholdSearch optimize_thresholds(const PolicyEvaluator& evaluator,
                                    const ThresholdSearchOptions& options) {
  const model::Model& m = evaluator.model();
  const int n = m.modes(), capacity = m.capacity;
  std::optional<PolicyCost> best;
  std::vector<double> constant(n, 0.0);
  std::map<std::vector<int>, ModeSetBest, decltype(&table_order)> by_modes(&table_order);

  spend(options.meter, static_cast<double>(threshold_policy_count(n, capacity)), policy_work(m));
  std::vector<model::Policy> policies;
  for (const auto& j : non_decreasing_vectors(n, all_values(capacity)))
    policies.push_back(model::Policy::from_thresholds(j, n, capacity));
  const Costs costs = costs_of(evaluator, policies, options.threads,
                               options.warm_start ? kWarmStartChunk : 1, options.warm_start);
  for (std::size_t i = 0; i < policies.size(); ++i) {
    const model::Policy& policy = policies[i];
    const double cost = costs.costs[i];
    if (!best || cost < best->cost) best = PolicyCost{policy, cost};
    const std::vector<int> used = modes_used(policy);
    auto [entry, inserted] = by_modes.try_emplace(used, ModeSetBest{used, {}, {policy, cost}});
    if (inserted || cost < entry->second.best.cost) entry->second.best = PolicyCost{policy, cost};
    if (used.size() == 1) constant[used[0] - 1] = cost;
  }
  ThresholdSearch search{.best = *best,
                         .constant = constant,
                         .by_modes = {},
                         .policies_solved = static_cast<std::int64_t>(policies.size()),
                         .solver_iterations = costs.iterations};
  for (auto& [modes, set_best] : by_modes) {
    set_best.thresholds = thresholds_among(set_best.best.policy, modes);
    search.by_modes.push_back(set_best);
  }
  return search;
}

std::vector<std::vector<int>> threshold_neighbours(const std::vector<int>& thresholds, int capacity,
                                                   int size_of_step) {
  std::vector<std::vector<int>> neighbours;
  const int size = static_cast<int>(thresholds.size());
  for (int q = 0; q < size; ++q)
    for (int step : {-size_of_step, +size_of_step}) {
      std::vector<int> j = thresholds;
      if ((step < 0 && j[q] == -1) || (step > 0 && j[q] == capacity)) continue;
      j[q] = std::clamp(j[q] + step, -1, capacity);
      // Push the thresholds the move would overtake.
      for (int p = q + 1; step > 0 && p < size; ++p) j[p] = std::max(j[p], j[q]);
      for (int p = q - 1; step < 0 && p >= 0; --p) j[p] = std::min(j[p], j[q]);
      if (std::find(neighbours.begin(), neighbours.end(), j) == neighbours.end())
        neighbours.push_back(j);
    }
  return neighbours;
}

std::vector<std::vector<int>> threshold_jumps(const std::vector<int>& thresholds, int capacity) {
  // (The search asks for them only beyond kPlateauCapacity.)
  std::vector<std::vector<int>> jumps;
  const auto add = [&](std::vector<int> j) {
    if (j != thresholds && std::find(jumps.begin(), jumps.end(), j) == jumps.end())
      jumps.push_back(std::move(j));
  };
  for (int step = 2; step <= std::max(capacity, 1); step *= 2)
    for (auto& j : threshold_neighbours(thresholds, capacity, step)) add(std::move(j));
  const int size = static_cast<int>(thresholds.size());
  for (int q = 0; q < size; ++q)
    for (long long value = -1; value <= capacity;
         value = value < 1 ? value + 1 : 2 * value + 1) {  // -1, 0, 1, 3, 7, ...
      std::vector<int> j = thresholds;
      j[q] = static_cast<int>(value);
      for (int p = q + 1; p < size; ++p) j[p] = std::max(j[p], j[q]);
      for (int p = q - 1; p >= 0; --p) j[p] = std::min(j[p], j[q]);
      add(std::move(j));
    }
  return jumps;
}

std::vector<std::vector<int>> threshold_start_grid(int modes, int capacity) {
  std::vector<int> values{-1, capacity / 2, capacity};
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return non_decreasing_vectors(modes, values);
}

LocalThresholdSearch optimize_thresholds_locally(const PolicyEvaluator& evaluator,
                                                 const ThresholdSearchOptions& options) {
  const model::Model& m = evaluator.model();
  const int n = m.modes(), capacity = m.capacity;
  std::vector<double> constant(n, 0.0);
  std::vector<PolicyCost> solved;
  std::int64_t iterations = 0;
  const double each = policy_work(m);
  std::map<std::vector<int>, double> cost_of;  // every vector solved

  // Solves those of `vectors` not solved before, in parallel, each from `warm` (nullptr: cold);
  // with warm starts, returns the stationary vectors of the ones solved now.
  const auto solve = [&](const std::vector<std::vector<int>>& vectors,
                         const Eigen::VectorXd* warm) {
    std::vector<std::vector<int>> fresh;
    for (const auto& j : vectors)
      if (!cost_of.contains(j) && std::find(fresh.begin(), fresh.end(), j) == fresh.end())
        fresh.push_back(j);
    spend(options.meter, static_cast<double>(fresh.size()), each);
    std::vector<std::optional<PolicyEvaluation>> evaluations(fresh.size());
    parallel_for(fresh.size(), options.threads, [&](std::size_t i) {
      evaluations[i] = evaluator.evaluate(model::Policy::from_thresholds(fresh[i], n, capacity),
                                          options.warm_start ? warm : nullptr);
      checked_cost(*evaluations[i]);
    });
    std::map<std::vector<int>, Eigen::VectorXd> stationary;
    for (std::size_t i = 0; i < fresh.size(); ++i) {
      PolicyEvaluation& e = *evaluations[i];
      cost_of[fresh[i]] = e.measures.cost;
      solved.push_back(PolicyCost{std::get<model::Policy>(e.policy), e.measures.cost});
      iterations += e.stationary.summary.iterations;
      if (options.warm_start) stationary[fresh[i]] = std::move(e.stationary.probabilities);
    }
    return stationary;
  };
  // The first of `vectors` of least cost.
  const auto cheapest = [&](const std::vector<std::vector<int>>& vectors) {
    const std::vector<int>* least = &vectors.front();
    for (const auto& j : vectors)
      if (cost_of.at(j) < cost_of.at(*least)) least = &j;
    return *least;
  };

  afford(options.meter, threshold_vector_count(n, 1), each);  // the grid, before it is built
  const std::vector<std::vector<int>> grid = threshold_start_grid(n, capacity);
  auto grid_stationary = solve(grid, nullptr);
  for (const auto& j : grid) {
    const std::vector<int> used = modes_used(model::Policy::from_thresholds(j, n, capacity));
    if (used.size() == 1) constant[used[0] - 1] = cost_of.at(j);
  }
  // Descents from the grid's vectors, cheapest first (the first on ties), as many as asked.
  std::vector<std::vector<int>> starts = grid;
  std::stable_sort(starts.begin(), starts.end(),
                   [&](const auto& a, const auto& b) { return cost_of.at(a) < cost_of.at(b); });
  if (options.starts > 0 && starts.size() > static_cast<std::size_t>(options.starts))
    starts.resize(options.starts);
  std::set<std::vector<int>> descended;  // every vector a descent has moved from or stopped at
  std::vector<int> best = starts.front();
  int moves = 0, descents = 0;
  for (const auto& start : starts) {
    ++descents;
    std::vector<int> current = start;
    // The current policy's stationary vector: where its neighbours' solves start.
    Eigen::VectorXd warm;
    if (const auto found = grid_stationary.find(current); found != grid_stationary.end())
      warm = std::move(found->second);
    // Every move lowers the cost strictly and costs are kept, so no vector is solved twice; a
    // descent that reaches a vector an earlier one passed through would follow it, so it stops
    // there.
    while (descended.insert(current).second) {
      // One level first; where no such neighbour costs less, the long jumps (threshold_jumps).
      std::optional<std::vector<int>> next;
      std::map<std::vector<int>, Eigen::VectorXd> stationary;
      for (const bool jump : {false, true}) {
        if (jump && capacity <= kPlateauCapacity) break;
        const std::vector<std::vector<int>> neighbours =
            jump ? threshold_jumps(current, capacity) : threshold_neighbours(current, capacity);
        if (neighbours.empty()) continue;
        stationary = solve(neighbours, warm.size() > 0 ? &warm : nullptr);
        const std::vector<int> cheapest_neighbour = cheapest(neighbours);
        if (cost_of.at(cheapest_neighbour) < cost_of.at(current)) {
          next = cheapest_neighbour;
          break;
        }
      }
      if (!next) break;
      current = *next;
      ++moves;
      const auto found = stationary.find(current);
      warm = found != stationary.end() ? std::move(found->second) : Eigen::VectorXd();
    }
    if (cost_of.at(current) < cost_of.at(best)) best = current;
  }
  const auto policy_cost = [&](const std::vector<int>& j) {
    return PolicyCost{model::Policy::from_thresholds(j, n, capacity), cost_of.at(j)};
  };
  const auto count = static_cast<std::int64_t>(solved.size());
  return LocalThresholdSearch{.best = policy_cost(best),
                              .start = policy_cost(starts.front()),
                              .constant = constant,
                              .descents = descents,
                              .moves = moves,
                              .solved = std::move(solved),
                              .policies_solved = count,
                              .solver_iterations = iterations};
}

PolicyCost best_threshold(const PolicyEvaluator& evaluator, Search search, int threads, int starts,
                          WorkMeter* meter) {
  const ThresholdSearchOptions options{
      .threads = threads, .warm_start = false, .starts = starts, .meter = meter};
  if (choose_search(search, evaluator.model()) == Search::kLocal)
    return optimize_thresholds_locally(evaluator, options).best;
  return optimize_thresholds(evaluator, options).best;
}

const char* search_name(Search search) { return kSearchNames.name(search).data(); }

Search parse_search(const std::string& name) { return kSearchNames.parse(name); }

double threshold_search_work(const model::Model& model) {
  return static_cast<double>(threshold_policy_count(model.modes(), model.capacity)) *
         (estimate_memory(model).states + kPolicyOverheadStates);
}

Search choose_search(Search search, const model::Model& model) {
  if (search != Search::kAuto) return search;
  return threshold_search_work(model) <= kExhaustiveWork ? Search::kExhaustive : Search::kLocal;
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
  const std::vector<double> costs = costs_of(evaluator, policies, threads, 1, /*warm=*/false).costs;
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
