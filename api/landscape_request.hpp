#pragma once
// The cost over a plane of threshold vectors, as the lab draws it: two thresholds (the axes) run
// over -1..K, the others stay as given; each ordered vector is solved by the exact engine. A
// request like solve's: checked before any work, cancellable, with its JSON.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analytic/stationary/memory_estimate.hpp"
#include "api/caller_words.hpp"
#include "api/solve_request.hpp"
#include "model/model.hpp"

namespace crawlq::api {

// A landscape solves about (K + 2)^2 / 2 chains: beyond this many states in all it is refused.
inline constexpr double kMostLandscapeStates = 2e8;

struct LandscapeRequest {
  std::string source;  // what messages call the model
  model::Model model;
  std::vector<int> thresholds;     // the vector the plane passes through; empty: all -1
  std::vector<int> axes = {0, 1};  // which two thresholds vary
  Caller caller = Caller::kLab;
  int threads = 1;  // the plane's solves side by side; the answer does not depend on it
};

struct LandscapeResult {
  std::vector<int> values;  // -1..K, each axis's values
  // [a][b]: the cost with axis 0 at values[a] and axis 1 at values[b]; nothing where the vector is
  // not ordered or its solve did not converge.
  std::vector<std::vector<std::optional<double>>> cost;
  std::optional<std::pair<std::vector<int>, double>> best;  // the cheapest vector of the plane
};

// Every check before the work (model::InputError naming the field: a model with fewer than three
// modes, thresholds of the wrong count, axes not two different thresholds, a chain too large for
// memory, a plane past kMostLandscapeStates); the memory one solve holds.
analytic::MemoryEstimate check(const LandscapeRequest& request);
// Cancelled when `cancel` is set before it ends.
LandscapeResult landscape(const LandscapeRequest& request, const Cancellation* cancel = nullptr);
// {"axes", "values", "cost", "best": {"thresholds", "cost"} or null}.
nlohmann::json to_json(const LandscapeRequest& request, const LandscapeResult& result);

}  // namespace crawlq::api
