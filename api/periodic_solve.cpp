#include "api/periodic_solve.hpp"

#include <fmt/format.h>

#include "api/json_output.hpp"
#include "api/request_checks.hpp"
#include "model/input_error.hpp"

namespace crawlq::api {

PeriodicSolve solve_periodic(const model::Model& model,
                             const std::vector<model::ControlPolicy>& policies,
                             const analytic::PolicyEvaluator& evaluator, const std::string& source,
                             Caller caller, int threads, const std::atomic<bool>* cancel) {
  try {
    return analytic::evaluate_periodic(model, policies, evaluator, threads, cancel);
  } catch (const std::invalid_argument& refusal) {  // the method refuses this model
    throw model::InputError(source, refusal.what());
  } catch (const analytic::StationaryFailure& failure) {
    refuse_unconverged(evaluator.model(), source, failure.summary(), caller);
  } catch (const analytic::UnsettledRegime& unsettled) {
    throw model::InputError(source, unsettled.what());
  }
}

nlohmann::json rhythm_json(const model::Rhythm& rhythm, const analytic::PeriodicRegime& regime) {
  nlohmann::json j = rhythm_keys_json(rhythm);
  j.update({{"residual", regime.residual},
            {"converged", regime.converged},
            {"periods", regime.periods},
            {"extrapolations", regime.extrapolations},
            {"products", regime.products},
            {"truncation_error", regime.truncation_error},
            {"transient_method", analytic::kTransientMethodNames.name(regime.method)}});
  return j;
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
