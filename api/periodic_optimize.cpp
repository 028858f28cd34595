#include "api/periodic_optimize.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/control/policy_search.hpp"
#include "api/periodic_solve.hpp"
#include "api/request_checks.hpp"
#include "model/input_error.hpp"

namespace crawlq::api {

analytic::PeriodicThresholdSearch optimize_periodic(const model::Model& model,
                                                    const std::string& source,
                                                    const PeriodicOptimizeSettings& settings,
                                                    const std::atomic<bool>* cancel) {
  // The mean arrivals' best vector, and its long run: where the search and every periodic
  // regime's iterations start.
  const model::Model averaged = analytic::averaged_over_period(model);
  const analytic::PolicyEvaluator evaluator(averaged, settings.method, 1, cancel);
  if (settings.progress) settings.progress("the best vector for the period's mean arrivals");
  const analytic::PolicyCost start =
      analytic::best_threshold(evaluator, settings.search, settings.threads, settings.starts);
  const analytic::PolicyEvaluation long_run = evaluator.evaluate(start.policy);
  if (long_run.stationary.summary.status != analytic::SolverStatus::kConverged)
    refuse_unconverged(averaged, source, long_run.stationary.summary, settings.caller);
  try {
    return analytic::optimize_periodic_thresholds(
        model, evaluator.tagged_chain(), long_run.stationary.probabilities,
        *start.policy.thresholds(),
        {.threads = settings.threads, .stop = cancel, .progress = settings.progress});
  } catch (const analytic::Cancelled&) {
    throw;
  } catch (const std::runtime_error& unsettled) {
    throw model::InputError(source, unsettled.what());
  }
}

nlohmann::json periodic_search_json(const model::Model& model,
                                    const analytic::PeriodicThresholdSearch& search,
                                    double seconds) {
  nlohmann::json by_piece = nlohmann::json::array();
  const model::Rhythm& rhythm = *model.rhythm;
  for (std::size_t i = 0; i < search.by_piece.size(); ++i)
    by_piece.push_back({{"start", rhythm.piece_start(i)},
                        {"scale", rhythm.scales[i]},
                        {"thresholds", search.by_piece[i]}});
  return {{"best", {{"by_piece", std::move(by_piece)}, {"cost", search.by_piece_cost}}},
          {"single", {{"thresholds", search.single}, {"cost", search.single_cost}}},
          {"saving", search.single_cost - search.by_piece_cost},
          {"mean_arrivals_best", {{"thresholds", search.start}}},
          {"search", "coordinate"},
          {"single_search", search.single_enumerated ? "exhaustive" : "local"},
          {"optimality", "local"},
          {"sweeps", search.sweeps},
          {"moves", search.moves},
          {"policies_solved", search.policies_solved},
          {"rhythm", {{"period", rhythm.period}, {"pieces", rhythm.pieces()}}},
          {"seconds", seconds}};
}

}  // namespace crawlq::api
