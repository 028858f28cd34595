#pragma once
// What each class of policies can do on one model, from the paper's to every policy that sees the
// whole state: the best of each (exactly evaluated) beside the least of all, so that the price of
// each restriction on what the controller sees or remembers can be read off.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analytic/control/markov_search.hpp"
#include "analytic/control/policy_search.hpp"
#include "analytic/control/search_kinds.hpp"
#include "analytic/control/table_search.hpp"

namespace crawlq::analytic {

struct ClassRow {
  std::string name;  // "constant", "thresholds", "levels", "memory", "phase-aware", "markov"
  double cost = 0;
  std::string optimality;  // "global" (the class's optimum), "local" (a local minimum), "heuristic"
  model::ControlPolicy policy;
};

struct ClassComparison {
  std::vector<ClassRow> rows;          // from the smallest class to the largest
  std::optional<MarkovSearch> markov;  // the last row's search; always set
  // The least cost of the rows (the full-state row unless a heuristic's best lost to another
  // class).
  double optimum() const;
};

// A row's excess over the optimum: 0 within round-off.
double excess(double cost, double optimum);

struct ClassComparisonOptions {
  int threads = 0;
  Search search = Search::kAuto;  // the threshold class's
  int starts = 1;
  // Level maps enumerated up to this many (and kExhaustiveWork, search_work.hpp), else the descent.
  std::int64_t max_maps = 1'000'000;
  std::function<void(const std::string&)> progress;
  WorkMeter* meter = nullptr;  // charged by every search of the comparison
};

// The classes, from the smallest: "constant", "thresholds", "levels", "memory", "phase-aware",
// "markov" (every policy that sees the whole state).
const std::vector<std::string>& policy_class_names();

// The best policy of one class by name (std::invalid_argument for an unknown one). `thresholds`:
// that class's best when already known (the table classes start their descent from it).
ClassRow best_of_class(const PolicyEvaluator& evaluator, const std::string& name,
                       const ClassComparisonOptions& options,
                       const std::optional<PolicyCost>& thresholds = std::nullopt);

ClassComparison compare_classes(const PolicyEvaluator& evaluator,
                                const ClassComparisonOptions& options);

}  // namespace crawlq::analytic
