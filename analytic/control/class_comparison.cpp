#include "analytic/control/class_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analytic/control/search_work.hpp"

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

const std::vector<std::string>& policy_class_names() {
  static const std::vector<std::string> names{"constant", "thresholds",  "levels",
                                              "memory",   "phase-aware", "markov"};
  return names;
}

ClassRow best_of_class(const PolicyEvaluator& evaluator, const std::string& name,
                       const ClassComparisonOptions& options,
                       const std::optional<PolicyCost>& known_thresholds) {
  const model::Model& model = evaluator.model();
  const auto thresholds = [&] {
    return known_thresholds ? *known_thresholds
                            : best_threshold(evaluator, options.search, options.threads,
                                             options.starts, options.meter);
  };
  if (name == "constant") {
    std::optional<ClassRow> best;
    for (int r = 1; r <= model.modes(); ++r) {
      const model::Policy policy = model::Policy::constant(r, model.modes(), model.capacity);
      const double cost = evaluator.evaluate(policy).measures.cost;
      if (!best || cost < best->cost) best = ClassRow{"constant", cost, "global", policy};
    }
    return *best;
  }
  if (name == "thresholds") {
    const PolicyCost best = thresholds();
    return {name, best.cost,
            choose_search(options.search, model) == Search::kLocal ? "local" : "global",
            best.policy};
  }
  if (name == "levels") {
    if (enumerates_level_maps(model, options.max_maps)) {
      spend(options.meter, level_map_work(model).policies, policy_work(model));
      const LevelSearch levels = optimize_levels(evaluator, options.max_maps, options.threads);
      return {name, levels.best.cost, "global", levels.best.policy};
    }
    const TableClassSearch levels = optimize_table_class(
        evaluator, TableClass::kLevels, thresholds().policy, 0, options.threads, options.meter);
    return {name, levels.best->measures.cost, "local", levels.best->policy};
  }
  if (name == "memory" || name == "phase-aware") {
    const TableClassSearch search = optimize_table_class(
        evaluator, name == "memory" ? TableClass::kMemory : TableClass::kPhaseAware,
        thresholds().policy, kExhaustiveTables, options.threads, options.meter);
    return {name, search.best->measures.cost, search.exhaustive ? "global" : "local",
            search.best->policy};
  }
  if (name == "markov") {
    const MarkovSearch markov =
        optimize_markov_policies(evaluator, {.threads = options.threads,
                                             .search = options.search,
                                             .starts = options.starts,
                                             .threshold_best = known_thresholds,
                                             .progress = nullptr,
                                             .meter = options.meter});
    return {name, markov.best->measures.cost, markov.global ? "global" : "heuristic",
            markov.best->policy};
  }
  throw std::invalid_argument("unknown policy class '" + name + "'");
}

ClassComparison compare_classes(const PolicyEvaluator& evaluator,
                                const ClassComparisonOptions& options) {
  const auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  ClassComparison c{.rows = {}, .markov = std::nullopt};
  say("thresholds");
  const PolicyCost thresholds =
      best_threshold(evaluator, options.search, options.threads, options.starts, options.meter);
  for (const std::string& name : policy_class_names()) {
    if (name == "markov") break;
    say(name);
    c.rows.push_back(best_of_class(evaluator, name, options, thresholds));
  }
  say("every policy that sees the whole state");
  c.markov = optimize_markov_policies(evaluator, {.threads = options.threads,
                                                  .search = options.search,
                                                  .starts = options.starts,
                                                  .threshold_best = thresholds,
                                                  .progress = nullptr,
                                                  .meter = options.meter});
  c.rows.push_back({"markov", c.markov->best->measures.cost,
                    c.markov->global ? "global" : "heuristic", c.markov->best->policy});
  return c;
}

}  // namespace crawlq::analytic
