#include "api/periodic_solve.hpp"

#include <fmt/format.h>

#include <chrono>

#include "api/json_output.hpp"
#include "api/request_checks.hpp"
#include "model/input_error.hpp"

namespace crawlq::api {

model::Model averaged_model(const model::Model& model) {
  model::Model averaged = model;
  averaged.rhythm.reset();
  averaged.arrivals = model::scaled_arrivals(model.arrivals, model.rhythm->mean_scale());
  return averaged;
}

std::vector<model::ControlPolicy> piece_policies(const model::Model& model,
                                                 const model::ControlPolicy& policy) {
  if (model.piece_policies.empty()) return {policy};
  return model.piece_policies;
}

PeriodicSolve solve_periodic(const model::Model& model,
                             const std::vector<model::ControlPolicy>& policies,
                             const analytic::PolicyEvaluator& evaluator, const std::string& source,
                             Caller caller, int threads, const std::atomic<bool>* cancel) {
  const analytic::PolicyEvaluation start = [&] {
    try {
      return evaluator.evaluate(policies.front());
    } catch (const std::invalid_argument& refusal) {  // the method refuses this model
      throw model::InputError(source, refusal.what());
    }
  }();
  if (cancel && *cancel) throw analytic::Cancelled();
  if (start.stationary.summary.status != analytic::SolverStatus::kConverged)
    refuse_unconverged(evaluator.model(), source, start.stationary.summary, caller);
  const auto began = std::chrono::steady_clock::now();
  analytic::PeriodicRegime regime =
      analytic::periodic_regime(model, policies, start.stationary.probabilities,
                                evaluator.tagged_chain(), {.threads = threads, .stop = cancel});
  if (!regime.converged)
    throw model::InputError(
        source, fmt::format("the periodic regime did not settle: after {} periods the period "
                            "still moves the distribution by {:.2g} (l1)",
                            regime.periods, regime.residual));
  PeriodicSolve out{.evaluation = {.policy = policies.front(),
                                   .stationary = {.probabilities = regime.start, .summary = {}},
                                   .measures = regime.period},
                    .regime = std::move(regime),
                    .seconds_start = start.stationary.summary.seconds};
  analytic::StationarySummary& summary = out.evaluation.stationary.summary;
  summary.status = analytic::SolverStatus::kConverged;
  summary.method = start.stationary.summary.method;
  summary.residual = out.regime.residual;
  summary.iterations = out.regime.periods;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return out;
}

nlohmann::json rhythm_json(const model::Rhythm& rhythm, const analytic::PeriodicRegime& regime) {
  return {{"period", rhythm.period},
          {"pieces", rhythm.pieces()},
          {"scales", rhythm.scales},
          {"residual", regime.residual},
          {"converged", regime.converged},
          {"periods", regime.periods},
          {"extrapolations", regime.extrapolations},
          {"products", regime.products},
          {"truncation_error", regime.truncation_error},
          {"transient_method", analytic::kTransientMethodNames.name(regime.method)}};
}

nlohmann::json pieces_json(const analytic::PeriodicRegime& regime,
                           const std::vector<model::ControlPolicy>& policies) {
  nlohmann::json pieces = nlohmann::json::array();
  for (std::size_t i = 0; i < regime.pieces.size(); ++i) {
    const analytic::PeriodicPiece& piece = regime.pieces[i];
    nlohmann::json j{{"start", piece.start},
                     {"policy", control_policy_json(policies[i % policies.size()])},
                     {"length", piece.length},
                     {"scale", piece.scale},
                     {"level_probabilities_at_start", piece.level_probabilities_at_start},
                     {"offered", piece.offered},
                     {"lost", piece.lost},
                     {"obsolete", piece.obsolete},
                     {"served", piece.served},
                     {"p_served_by_arrival", piece.served_by_arrival},
                     {"p_obsolete_by_arrival", piece.obsolete_by_arrival}};
    put_measures(j, piece.measures);
    pieces.push_back(std::move(j));
  }
  return pieces;
}

}  // namespace crawlq::api
