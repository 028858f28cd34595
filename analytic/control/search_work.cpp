#include "analytic/control/search_work.hpp"

#include <algorithm>
#include <cmath>

#include "analytic/control/markov_search.hpp"
#include "analytic/stationary/memory_estimate.hpp"

namespace crawlq::analytic {

namespace {

SearchWork of(double policies, double each) {
  return {.policies = policies, .work = policies * each};
}

int floor_log2(int x) {
  int bits = 0;
  while (x > 1) x /= 2, ++bits;
  return bits;
}

}  // namespace

double policy_work(const model::Model& model, double environment_factor) {
  return block_recursion_memory(model).states * environment_factor + kPolicyOverheadStates +
         kLevelOverheadStates * (model.capacity + 1.0);
}

double threshold_vector_count(int modes, int capacity) {
  // C(n, k) with n = K + N and k = min(N - 1, K + 1): the product of few factors.
  const double n = static_cast<double>(capacity) + modes;
  const int k = std::min(modes - 1, capacity + 1);
  double c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return std::round(c);
}

SearchWork least_threshold_work(const model::Model& model, Search search) {
  const int n = model.modes(), k = model.capacity;
  const double each = policy_work(model);
  if (choose_search(search, model) == Search::kExhaustive)
    return of(threshold_vector_count(n, k), each);
  // The grid over {-1, K/2, K}: N(N+1)/2 vectors; a round moves each of the N-1 thresholds one
  // level down and up and, beyond kPlateauCapacity, by 2, 4, ... and to -1, 0, 1, 3, 7, ...
  const double grid = threshold_vector_count(n, 1);
  const double moves_each =
      2.0 + (k > kPlateauCapacity ? 2.0 * floor_log2(k) + floor_log2(k + 1) + 2 : 0.0);
  return of(grid + (n - 1) * moves_each, each);
}

SearchWork level_map_work(const model::Model& model) {
  return of(std::pow(static_cast<double>(model.modes()), model.capacity + 1.0), policy_work(model));
}

bool enumerates_level_maps(const model::Model& model, std::int64_t max_maps) {
  const SearchWork all = level_map_work(model);
  return all.policies <= static_cast<double>(max_maps) && all.work <= kExhaustiveWork;
}

int table_columns(const model::Model& model, TableClass table_class) {
  switch (table_class) {
    case TableClass::kLevels:
      return 1;
    case TableClass::kPhaseAware:
      return model.arrivals.phases();
    case TableClass::kMemory:
      return model.modes();
  }
  return 1;
}

SearchWork least_table_work(const model::Model& model, TableClass table_class,
                            std::int64_t max_exhaustive) {
  const double n = model.modes(),
               entries = (model.capacity + 1.0) * table_columns(model, table_class);
  const double each = policy_work(model, table_class == TableClass::kMemory ? n : 1);
  const double tables = std::pow(n, entries);
  if (tables <= static_cast<double>(max_exhaustive)) return of(tables, each);
  return of(1 + entries * (n - 1), each);
}

SearchWork least_class_work(const model::Model& model, const std::string& policy_class,
                            Search search, std::int64_t max_maps) {
  const double each = policy_work(model);
  SearchWork work = least_threshold_work(model, search);
  if (policy_class == "thresholds") return work;
  if (policy_class == "constant") return of(model.modes(), each);
  const bool all = policy_class == "all";
  if (all) work += of(model.modes(), each);
  if (all || policy_class == "levels") {
    if (enumerates_level_maps(model, max_maps)) {
      // The enumeration needs no threshold search of its own.
      if (!all) work = {};
      work += level_map_work(model);
    } else {
      work += least_table_work(model, TableClass::kLevels, 0);
    }
  }
  if (all || policy_class == "memory")
    work += least_table_work(model, TableClass::kMemory, kExhaustiveTables);
  if (all || policy_class == "phase-aware")
    work += least_table_work(model, TableClass::kPhaseAware, kExhaustiveTables);
  // Policy iteration evaluates at least the start and its improvement; with a sojourn weight, once
  // for each stand-in holding weight, each candidate evaluated again under (2).
  if (all || policy_class == "markov")
    work += of(model.costs.sojourn == 0 ? 2 : 2 * kMarkovCandidates, each);
  return work;
}

}  // namespace crawlq::analytic
