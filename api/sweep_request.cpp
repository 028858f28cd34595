#include "api/sweep_request.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

#include "analytic/stationary/clock_lumping.hpp"
#include "api/json_output.hpp"
#include "api/request_checks.hpp"
#include "model/input_error.hpp"

namespace crawlq::api {

void require_sweep_fits(const SweepRequest& request) {
  const std::string name = validation::parameter_name(request.parameter);
  for (const double v : request.values) {
    const model::Model changed = searched_model(validation::swept_chain_model(
        validation::with_parameter(request.model, request.parameter, v), request.policy_class,
        request.full_chain));
    try {
      require_exact_engine_fits(changed, request.source, analytic::Method::kAuto, request.caller);
      if (request.policy_class == "markov")
        require_markov_control_fits(changed, request.source,
                                    field_given(request.caller, Field::kClass, "markov"));
    } catch (const model::InputError& e) {
      throw model::InputError(fmt::format("{}: {} {} is too large: {}",
                                          field_name(request.caller, Field::kValues), name, v,
                                          e.what()));
    }
  }
}

bool SweepRequest::is_valid(std::string* why) const {
  std::string problem;
  try {
    validation::require_applicable(model, parameter);
  } catch (const std::invalid_argument& e) {
    problem =
        fmt::format("{}: {}", source, field_given(caller, Field::kParameter, e.what(), false));
  }
  for (const double v : values) {
    if (!problem.empty()) break;
    try {
      (void)validation::with_parameter(model, parameter, v);
    } catch (const std::invalid_argument& e) {
      problem = fmt::format("{}: {}", field_name(caller, Field::kValues), e.what());
    }
  }
  if (problem.empty() && threads < 0)
    problem = fmt::format("{}: {}: must be 0 (all cores) or more",
                          field_name(caller, Field::kThreads), threads);
  const auto& classes = analytic::policy_class_names();
  if (problem.empty() && std::find(classes.begin(), classes.end(), policy_class) == classes.end())
    problem = fmt::format("{}: unknown class '{}' (known: {})", field_name(caller, Field::kClass),
                          policy_class, fmt::join(classes, ", "));
  return model::valid_unless(std::move(problem), why);
}

void check(const SweepRequest& request) {
  if (std::string why; !request.is_valid(&why)) throw model::InputError(why);
  if (request.model.rhythm && request.policy_class != "thresholds")
    throw model::InputError(
        request.source + ": rhythm",
        fmt::format("under a rhythm a sweep optimises threshold vectors (one for the period and "
                    "one per piece); the class '{}' is not searched per piece yet",
                    request.policy_class));
  require_sweep_fits(request);
}

std::vector<validation::SweepRow> sweep(const SweepRequest& request) {
  check(request);
  return validation::sweep(request.model, request.parameter, request.values, request.threads,
                           request.policy_class, request.full_chain);
}

std::vector<int> thresholds_of(const validation::SweepRow& row) {
  return row.best.policy.thresholds().value_or(std::vector<int>{});
}

namespace {

// A capacity is a whole number: printed as one in JSON.
nlohmann::json value_json(validation::SweepParameter parameter, double value) {
  if (parameter == validation::SweepParameter::kCapacity) return static_cast<int>(value);
  return value;
}

nlohmann::json row_json(validation::SweepParameter parameter, const validation::SweepRow& row) {
  nlohmann::json j{{"value", value_json(parameter, row.value)},
                   {"best",
                    {{"thresholds", thresholds_of(row)},
                     {"levels", row.best.policy.levels()},
                     {"cost", row.best.cost}}},
                   {"constant", row.constant},
                   {"relative_profit", row.relative_profit},
                   {"mean_service_time", row.mean_service_time},
                   {"mean_obsolescence_time", row.mean_obsolescence_time
                                                  ? nlohmann::json(*row.mean_obsolescence_time)
                                                  : nlohmann::json(nullptr)}};
  // The best policy's measures; a row is a summary, so the probabilities of each level and mode
  // stay out.
  put_measures(j, row.measures, false);
  if (row.by_piece) {
    nlohmann::json pieces = nlohmann::json::array();
    for (const std::vector<int>& t : row.by_piece->thresholds)
      pieces.push_back({{"thresholds", t}});
    j["by_piece"] = {{"pieces", std::move(pieces)}, {"cost", row.by_piece->cost}};
    j["saving"] = row.best.cost - row.by_piece->cost;
  }
  if (row.class_best) {
    j["class_best"] = class_best_json(row.class_best->policy, row.class_best->cost);
    j["class_best"]["class"] = row.class_best->name;
    j["class_best"]["optimality"] = row.class_best->optimality;
  }
  return j;
}

}  // namespace

nlohmann::json to_json(const SweepRequest& request, const std::vector<validation::SweepRow>& rows) {
  nlohmann::json j{{"param", validation::parameter_name(request.parameter)},
                   {"rows", nlohmann::json::array()}};
  if (const auto& rhythm = request.model.rhythm) j["rhythm"] = rhythm_keys_json(*rhythm);
  if (const std::optional<double> rate = analytic::lumped_clock_rate(
          validation::swept_chain_model(request.model, request.policy_class, request.full_chain),
          request.model))
    j["lumping"] = searched_lumping_text(*rate, request.model.time_unit);
  for (const validation::SweepRow& row : rows)
    j["rows"].push_back(row_json(request.parameter, row));
  return j;
}

}  // namespace crawlq::api
