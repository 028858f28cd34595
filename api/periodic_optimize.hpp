#pragma once
// `optimize` on a scenario with a rhythm: the best threshold vector for the whole period and the
// best vector per piece, each judged by the periodic regime's cost (2)
// (analytic/control/periodic_search.hpp), starting from the mean arrivals' best; and their JSON
// (`"best": {"by_piece": [...], "cost"}`, `"single": {"thresholds", "cost"}`, interface.md).
#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "analytic/control/periodic_search.hpp"
#include "analytic/control/search_kinds.hpp"
#include "analytic/stationary/solve_method.hpp"
#include "api/caller_words.hpp"
#include "model/model.hpp"

namespace crawlq::api {

// What optimize's request gives the search: the mean arrivals' best is found by `search` (with
// `starts` descents) under `method`; candidates are solved on `threads`.
struct PeriodicOptimizeSettings {
  analytic::Method method = analytic::Method::kAuto;
  analytic::Search search = analytic::Search::kAuto;
  int threads = 0, starts = 1;
  Caller caller = Caller::kCommandLine;
  std::function<void(const std::string&)> progress = {};
};

// model::InputError naming `source` when a regime does not settle; Cancelled when `cancel` is set.
analytic::PeriodicThresholdSearch optimize_periodic(const model::Model& model,
                                                    const std::string& source,
                                                    const PeriodicOptimizeSettings& settings,
                                                    const std::atomic<bool>* cancel);

nlohmann::json periodic_search_json(const model::Model& model,
                                    const analytic::PeriodicThresholdSearch& search,
                                    double seconds);

}  // namespace crawlq::api
