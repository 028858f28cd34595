#include "api/landscape_request.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/parallel_for.hpp"
#include "analytic/stationary/clock_lumping.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "api/request_checks.hpp"
#include "model/input_error.hpp"
#include "model/policy.hpp"

namespace crawlq::api {

namespace {

std::vector<int> through(const LandscapeRequest& request) {
  if (!request.thresholds.empty()) return request.thresholds;
  return std::vector<int>(static_cast<std::size_t>(std::max(request.model.modes() - 1, 0)), -1);
}

}  // namespace

namespace {
// The chain each threshold vector runs: the clock lumped where its phases exit at one rate
// (analytic/stationary/clock_lumping.hpp), as solve and optimize lump it.
model::Model landscape_model(const LandscapeRequest& request) {
  const model::Model searched = searched_model(request.model);
  return analytic::lumped_clock_model(searched).value_or(searched);
}
}  // namespace

analytic::MemoryEstimate check(const LandscapeRequest& request) {
  require_no_rhythm(request.model, request.source, "landscape");
  const model::Model model = landscape_model(request);
  const int modes = model.modes(), capacity = model.capacity;
  const std::vector<int> thresholds = through(request);
  const std::vector<int>& axes = request.axes;
  if (modes < 3)
    throw model::InputError(
        "axes",
        fmt::format("{} modes make {} thresholds: a landscape needs two", modes, modes - 1));
  if (static_cast<int>(thresholds.size()) != modes - 1)
    throw model::InputError("thresholds", fmt::format("{} values for {} modes: give {}",
                                                      thresholds.size(), modes, modes - 1));
  if (axes.size() != 2 || axes[0] == axes[1] || axes[0] < 0 || axes[1] < 0 ||
      axes[0] >= modes - 1 || axes[1] >= modes - 1)
    throw model::InputError("axes",
                            fmt::format("give two different thresholds from 0 to {}", modes - 2));
  require_exact_engine_fits(model, request.source, analytic::Method::kAuto, request.caller);
  const analytic::MemoryEstimate need = analytic::estimate_memory(model);
  // Half the grid is ordered: that many solves of the whole chain.
  const double solves = 0.5 * (capacity + 2.0) * (capacity + 2.0);
  if (solves * need.states > kMostLandscapeStates)
    throw model::InputError(
        "capacity",
        fmt::format("a landscape at capacity {} is {:.0f} solves of {:.0f} states each, "
                    "more than the lab computes for one page ({:.0e} states in all): give "
                    "a smaller capacity",
                    capacity, solves, need.states, kMostLandscapeStates));
  return need;
}

LandscapeResult landscape(const LandscapeRequest& request, const Cancellation* cancel) {
  check(request);
  const model::Model model = landscape_model(request);
  const int modes = model.modes(), capacity = model.capacity;
  std::vector<int> thresholds = through(request);
  const auto first = static_cast<std::size_t>(request.axes[0]);
  const auto second = static_cast<std::size_t>(request.axes[1]);
  const analytic::PolicyEvaluator evaluator(model, analytic::Method::kAuto, 1, cancel);
  LandscapeResult result;
  for (int j = -1; j <= capacity; ++j) result.values.push_back(j);
  // The ordered vectors of the plane, row by row, solved side by side; the grid and the best are
  // then read in that order, so the answer is the same for any thread count.
  struct Cell {
    std::size_t row, column;
    std::vector<int> thresholds;
    std::optional<double> cost;
  };
  std::vector<Cell> cells;
  const std::size_t size = result.values.size();
  result.cost.assign(size, std::vector<std::optional<double>>(size));
  for (std::size_t a = 0; a < size; ++a)
    for (std::size_t b = 0; b < size; ++b) {
      thresholds[first] = result.values[a];
      thresholds[second] = result.values[b];
      if (std::is_sorted(thresholds.begin(), thresholds.end()))
        cells.push_back({a, b, thresholds, std::nullopt});
    }
  analytic::parallel_for(cells.size(), std::max(1, request.threads), [&](std::size_t i) {
    if (cancel && *cancel) throw Cancelled();
    Cell& cell = cells[i];
    const auto e =
        evaluator.evaluate(model::Policy::from_thresholds(cell.thresholds, modes, capacity));
    if (e.stationary.summary.status == analytic::SolverStatus::kConverged)
      cell.cost = e.measures.cost;
    else if (cancel && *cancel)
      throw Cancelled();
  });
  for (const Cell& cell : cells) {
    result.cost[cell.row][cell.column] = cell.cost;
    if (cell.cost && (!result.best || *cell.cost < result.best->second))
      result.best.emplace(cell.thresholds, *cell.cost);
  }
  return result;
}

nlohmann::json to_json(const LandscapeRequest& request, const LandscapeResult& result) {
  nlohmann::json grid = nlohmann::json::array();
  for (const auto& row : result.cost) {
    nlohmann::json cells = nlohmann::json::array();
    for (const auto& cost : row)
      cells.push_back(cost ? nlohmann::json(*cost) : nlohmann::json(nullptr));
    grid.push_back(std::move(cells));
  }
  nlohmann::json j{{"axes", request.axes}, {"values", result.values}, {"cost", std::move(grid)}};
  j["best"] = result.best ? nlohmann::json{{"thresholds", result.best->first},
                                           {"cost", result.best->second}}
                          : nlohmann::json(nullptr);
  return j;
}

}  // namespace crawlq::api
