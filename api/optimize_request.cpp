#include "api/optimize_request.hpp"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>

#include "api/json_output.hpp"
#include "model/input_error.hpp"

namespace crawlq::api {

const char* policy_class_name(PolicyClass policy_class) {
  switch (policy_class) {
    case PolicyClass::kThresholds: return "thresholds";
    case PolicyClass::kLevels: return "levels";
  }
  return "?";
}

PolicyClass parse_policy_class(const std::string& name) {
  for (PolicyClass c : {PolicyClass::kThresholds, PolicyClass::kLevels})
    if (name == policy_class_name(c)) return c;
  throw model::InputError("--class", fmt::format("unknown class '{}' (known: thresholds, levels)", name));
}

bool OptimizeRequest::is_valid(std::string* why) const {
  std::string problem;
  if (policy_class == PolicyClass::kLevels && search == analytic::Search::kLocal)
    problem = "--search local: searches the threshold class only; --class levels enumerates every map";
  else if (starts < 0)
    problem = fmt::format("--starts: {} is negative (give a count of grid vectors, 0 for all)", starts);
  else if (threads < 0)
    problem = fmt::format("--threads: {}: must be 0 (all cores) or more", threads);
  return model::valid_unless(std::move(problem), why);
}

OptimizeResult optimize(const OptimizeRequest& request) {
  if (std::string why; !request.is_valid(&why)) throw model::InputError(why);
  const analytic::PolicyEvaluator evaluator(request.model, request.method);
  const auto start = std::chrono::steady_clock::now();
  auto search = [&]() -> decltype(OptimizeResult::search) {
    if (request.policy_class == PolicyClass::kLevels) {
      try {
        return analytic::optimize_levels(evaluator, request.max_maps, request.threads);
      } catch (const std::invalid_argument& e) {
        throw model::InputError(request.source, e.what());
      }
    }
    if (analytic::choose_search(request.search, request.model) == analytic::Search::kLocal)
      return analytic::optimize_thresholds_locally(evaluator, {.threads = request.threads, .starts = request.starts});
    return analytic::optimize_thresholds(evaluator, request.threads);
  }();
  OptimizeResult result{.search = std::move(search),
                        .seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
  return result;
}

namespace {

nlohmann::json best_json(const analytic::PolicyCost& best) {
  nlohmann::json j = policy_json(best.policy);
  j["cost"] = best.cost;
  return j;
}

}  // namespace

nlohmann::json to_json(const OptimizeRequest& request, const OptimizeResult& result) {
  const model::Model& model = request.model;
  const std::int64_t count = analytic::threshold_policy_count(model.modes(), model.capacity);
  return std::visit(
      model::Overloaded{
          [&](const analytic::ThresholdSearch& search) {
            nlohmann::json j{{"best", best_json(search.best)},
                             {"constant", search.constant},
                             {"by_modes", nlohmann::json::array()},
                             {"search", "exhaustive"},
                             {"optimality", "global"},
                             {"policies_solved", search.policies_solved},
                             {"threshold_policies", count},
                             {"seconds", result.seconds}};
            for (const auto& set : search.by_modes)
              j["by_modes"].push_back({{"modes", set.modes},
                                       {"thresholds", set.thresholds},
                                       {"levels", set.best.policy.levels()},
                                       {"cost", set.best.cost}});
            return j;
          },
          [&](const analytic::LocalThresholdSearch& search) {
            // No by_modes: the search never meets most mode sets' best (interface.md's key is left
            // out, as with --class levels, rather than filled with what the search happened to visit).
            return nlohmann::json{{"best", best_json(search.best)},
                                  {"constant", search.constant},
                                  {"search", "local"},
                                  {"policies_solved", search.policies_solved},
                                  {"threshold_policies", count},
                                  {"start", best_json(search.start)},
                                  {"descents", search.descents},
                                  {"moves", search.moves},
                                  {"optimality", "local"},
                                  {"not_reported", {"by_modes"}},
                                  {"seconds", result.seconds}};
          },
          [&](const analytic::LevelSearch& search) {
            const bool threshold_is_best = search.best_threshold && search.best_threshold->cost <= search.best.cost;
            nlohmann::json j{{"best", best_json(search.best)},
                             {"threshold_is_best", threshold_is_best},
                             {"search", "exhaustive"},
                             {"policies_solved", search.policies_solved},
                             {"seconds", result.seconds}};
            if (search.best_threshold) j["best_threshold"] = best_json(*search.best_threshold);
            return j;
          }},
      result.search);
}

}  // namespace crawlq::api
