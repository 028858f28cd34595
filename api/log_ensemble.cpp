#include "api/log_ensemble.hpp"

#include <fmt/format.h>

#include <vector>

#include "analytic/stationary/memory_estimate.hpp"
#include "api/ensemble.hpp"
#include "api/fit_request.hpp"
#include "api/json_output.hpp"
#include "fit/timestamp_log.hpp"
#include "model/input_error.hpp"
#include "scenarios/yaml_json.hpp"

namespace crawlq::api {

namespace {

// The base with `arrivals` in place of its own, read back as any scenario is.
model::Model with_arrivals(const LogEnsembleRequest& request, const nlohmann::json& arrivals,
                           const std::string& which) {
  ScenarioSource source = request.base;
  source.text = with_fitted_arrivals(scenarios::yaml_to_json(request.base.text, request.base.label),
                                     {{"arrivals", arrivals}}, request.log_label)
                    .dump();
  source.label = fmt::format("{} ({})", request.base.label, which);
  model::Model model = read_scenario(source).model;
  if (request.most_states > 0) {
    model.policy = request.policy;
    const double states = analytic::estimate_memory(model).states;
    if (states > request.most_states)
      throw model::InputError(fmt::format(
          "{}: {:.0f} states with the log's arrivals: up to {:.0f} for the refits of a log "
          "(each is a solve); crawlq fit arrivals --bootstrap and solve --ensemble have no such "
          "bound",
          source.label, states, request.most_states));
  }
  return model;
}

analytic::Measures solved(const model::Model& model, const LogEnsembleRequest& request,
                          const std::string& which, const Cancellation* cancel) {
  const SolveRequest solve_request{.source = fmt::format("{} ({})", request.base.label, which),
                                   .model = model,
                                   .policy = request.policy,
                                   .method = analytic::Method::kAuto,
                                   .threads = 1,
                                   .caller = request.caller};
  return solve(solve_request, cancel).evaluation.measures;
}

}  // namespace

nlohmann::json log_ensemble(const LogEnsembleRequest& request, const Cancellation* cancel) {
  if (request.refits < 2 || request.refits > kMostLogRefits)
    throw model::InputError(fmt::format(
        "{}: give 2 to {} refits",
        field_given(request.caller, Field::kBootstrap, fmt::format("{}", request.refits), false),
        kMostLogRefits));
  FitArrivalsRequest fit;
  fit.source = request.log_label;
  fit.caller = request.caller;
  fit.times = fit::parse_timestamps(request.log_text, request.log_label, "", false, &fit.order);
  const model::Model base = read_scenario(request.base).model;  // its rules first
  fit.robots = base.modes();
  fit.bootstrap = request.refits;
  fit.seed = request.seed;
  std::vector<nlohmann::json> refit_arrivals;
  fit.refitted = [&](int, const nlohmann::json& arrivals) { refit_arrivals.push_back(arrivals); };
  const nlohmann::json fitted = fit_arrivals(fit);

  const analytic::Measures point =
      solved(with_arrivals(request, fitted.at("arrivals"), "the log's fit"), request,
             "the log's fit", cancel);
  std::vector<analytic::Measures> refits;
  nlohmann::json by_refit = nlohmann::json::array();
  for (std::size_t b = 0; b < refit_arrivals.size(); ++b) {
    const std::string which = fmt::format("refit {} of {}", b + 1, refit_arrivals.size());
    refits.push_back(
        solved(with_arrivals(request, refit_arrivals[b], which), request, which, cancel));
    nlohmann::json row;
    put_measures(row, refits.back(), false);
    by_refit.push_back(std::move(row));
  }
  return {{"log", request.log_label},
          {"lines", fit.times.size()},
          {"batches", fitted.at("batches")},
          {"refits", refit_arrivals.size()},
          {"seed", request.seed},
          {"reordered_lines", fit.order.lines_moved},
          {"measures", measure_spreads(point, refits)},
          {"by_refit", std::move(by_refit)}};
}

}  // namespace crawlq::api
