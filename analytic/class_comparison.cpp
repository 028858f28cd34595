#include "analytic/class_comparison.hpp"

#include <algorithm>
#include <cmath>

namespace crawlq::analytic {

double ClassComparison::optimum() const {
  double least = rows.front().cost;
  for (const auto& row : rows) least = std::min(least, row.cost);
  return least;
}

double excess(double cost, double optimum) {
  const double gap = cost - optimum;
  return std::abs(gap) <= 1e-12 * std::max(1.0, std::abs(optimum)) ? 0.0 : gap;
}

PolicyCost best_threshold(const PolicyEvaluator& evaluator, Search search, int threads, int starts) {
  if (choose_search(search, evaluator.model()) == Search::kLocal)
    return optimize_thresholds_locally(evaluator, {.threads = threads, .starts = starts}).best;
  return optimize_thresholds(evaluator, threads).best;
}

ClassComparison compare_classes(const PolicyEvaluator& evaluator, const ClassComparisonOptions& options) {
  const model::Model& model = evaluator.model();
  const auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  ClassComparison c{.rows = {}, .markov = std::nullopt};
  say("thresholds");
  const bool local = choose_search(options.search, model) == Search::kLocal;
  const PolicyCost thresholds = best_threshold(evaluator, options.search, options.threads, options.starts);
  std::optional<ClassRow> constant;
  for (int r = 1; r <= model.modes(); ++r) {
    const model::Policy policy = model::Policy::constant(r, model.modes(), model.capacity);
    const double cost = evaluator.evaluate(policy).measures.cost;
    if (!constant || cost < constant->cost) constant = ClassRow{"constant", cost, "global", policy};
  }
  c.rows.push_back(*constant);
  c.rows.push_back({"thresholds", thresholds.cost, local ? "local" : "global", thresholds.policy});
  say("level maps");
  if (const auto maps = level_map_count(model.modes(), model.capacity); maps && *maps <= options.max_maps) {
    const LevelSearch levels = optimize_levels(evaluator, options.max_maps, options.threads);
    c.rows.push_back({"levels", levels.best.cost, "global", levels.best.policy});
  } else {
    const TableClassSearch levels =
        optimize_table_class(evaluator, TableClass::kLevels, thresholds.policy, 0, options.threads);
    c.rows.push_back({"levels", levels.best->measures.cost, "local", levels.best->policy});
  }
  for (const TableClass table_class : {TableClass::kMemory, TableClass::kPhaseAware}) {
    say(table_class_name(table_class));
    const TableClassSearch search =
        optimize_table_class(evaluator, table_class, thresholds.policy, kExhaustiveTables, options.threads);
    c.rows.push_back({table_class_name(table_class), search.best->measures.cost, search.exhaustive ? "global" : "local",
                      search.best->policy});
  }
  say("every policy that sees the whole state");
  c.markov = optimize_markov_policies(evaluator, {.threads = options.threads, .search = options.search, .progress = nullptr});
  c.rows.push_back({"markov", c.markov->best->measures.cost, c.markov->global ? "global" : "heuristic",
                    c.markov->best->policy});
  return c;
}

}  // namespace crawlq::analytic
