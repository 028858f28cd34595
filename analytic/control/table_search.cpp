#include "analytic/control/table_search.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "analytic/control/search_work.hpp"
#include "analytic/parallel_for.hpp"
#include "model/input_error.hpp"

namespace crawlq::analytic {

namespace {

std::int64_t saturating_power(std::int64_t base, std::int64_t exponent) {
  std::int64_t p = 1;
  for (std::int64_t i = 0; i < exponent; ++i) {
    if (p > std::numeric_limits<std::int64_t>::max() / base)
      return std::numeric_limits<std::int64_t>::max();
    p *= base;
  }
  return p;
}

constexpr double kRefused = std::numeric_limits<double>::infinity();

}  // namespace

const char* table_class_name(TableClass table_class) {
  return kTableClassNames.name(table_class).data();
}

model::ControlPolicy table_policy(TableClass table_class, const model::Model& model,
                                  const std::vector<int>& entries) {
  const int width = table_columns(model, table_class);
  std::vector<std::vector<int>> rows;
  for (int level = 0; level <= model.capacity; ++level)
    rows.emplace_back(entries.begin() + level * width, entries.begin() + (level + 1) * width);
  switch (table_class) {
    case TableClass::kLevels:
      return model::Policy::from_levels(entries, model.modes(), model.capacity);
    case TableClass::kPhaseAware:
      return model::make_phase_aware(std::move(rows), model.modes(), model.capacity, width,
                                     "phase-aware");
    case TableClass::kMemory:
      return model::make_memory(std::move(rows), model.modes(), model.capacity, "memory");
  }
  throw std::logic_error("a table class without a policy form");
}

TableClassSearch optimize_table_class(const PolicyEvaluator& evaluator, TableClass table_class,
                                      const model::Policy& start, std::int64_t max_exhaustive,
                                      int threads, WorkMeter* meter) {
  const model::Model& model = evaluator.model();
  const int width = table_columns(model, table_class), n = model.modes();
  const std::size_t entries = static_cast<std::size_t>(model.capacity + 1) * width;
  TableClassSearch result;
  result.tables = saturating_power(n, static_cast<std::int64_t>(entries));
  const double each = policy_work(model, table_class == TableClass::kMemory ? n : 1);

  // Its cost (2), or infinity for a table the engine refuses. Only costs are kept while searching
  // (a round may solve hundreds of chains); the winner is evaluated again at the end.
  const auto cost_of = [&](const std::vector<int>& table) {
    try {
      const PolicyEvaluation e = evaluator.evaluate(table_policy(table_class, model, table));
      if (e.stationary.summary.status != SolverStatus::kConverged)
        throw StationaryFailure(e.stationary.summary);
      return e.measures.cost;
    } catch (const model::InputError&) {
      return kRefused;
    }
  };
  struct Solved {
    std::vector<int> table;
    double cost;
  };
  // The cheapest of the `count` tables table_at(i) makes (the first on ties, whatever the thread
  // count), or none if all are refused. Each thread makes its own tables, so a round holds only
  // costs.
  const auto cheapest =
      [&](std::size_t count,
          const std::function<std::vector<int>(std::size_t)>& table_at) -> std::optional<Solved> {
    spend(meter, static_cast<double>(count), each);
    std::vector<double> costs(count);
    parallel_for(count, threads, [&](std::size_t i) { costs[i] = cost_of(table_at(i)); });
    result.policies_solved += static_cast<std::int64_t>(count);
    const auto least = std::min_element(costs.begin(), costs.end());
    if (least == costs.end() || *least == kRefused) return std::nullopt;
    return Solved{table_at(static_cast<std::size_t>(least - costs.begin())), *least};
  };
  const auto finish = [&](const std::vector<int>& table) {
    result.best = evaluator.evaluate(table_policy(table_class, model, table));
    return result;
  };

  if (result.tables <= max_exhaustive) {
    // Table i: the entries are i's digits in base N, the first entry the lowest.
    const auto table_at = [&](std::size_t i) {
      std::vector<int> table(entries);
      for (int& e : table)
        e = 1 + static_cast<int>(i % static_cast<std::size_t>(n)), i /= static_cast<std::size_t>(n);
      return table;
    };
    const auto best = cheapest(static_cast<std::size_t>(result.tables), table_at);
    if (!best)
      throw std::runtime_error(
          fmt::format("every {} table was refused", table_class_name(table_class)));
    result.exhaustive = true;
    return finish(best->table);
  }

  // The start as a table of this class: every column runs the level's robots.
  std::vector<int> start_table;
  for (int level = 0; level <= model.capacity; ++level)
    start_table.insert(start_table.end(), width, start.robots(level));
  auto here = cheapest(1, [&](std::size_t) { return start_table; });
  if (!here) throw std::runtime_error("the start of the descent was refused");
  while (true) {
    // Neighbour i: entry i / (N-1) set to the (i % (N-1))-th value other than its own, in
    // increasing order.
    const std::vector<int>& current = here->table;
    const auto neighbour = [&](std::size_t i) {
      std::vector<int> table = current;
      const std::size_t e = i / static_cast<std::size_t>(n - 1);
      const int value = 1 + static_cast<int>(i % static_cast<std::size_t>(n - 1));
      table[e] = value >= current[e] ? value + 1 : value;
      return table;
    };
    const auto next =
        n > 1 ? cheapest(entries * static_cast<std::size_t>(n - 1), neighbour) : std::nullopt;
    if (!next || next->cost >= here->cost) break;
    here = next;
    ++result.moves;
  }
  return finish(here->table);
}

}  // namespace crawlq::analytic
