#include "app/json_output.hpp"

namespace crawlq::app {

nlohmann::json policy_json(const model::Policy& policy) {
  nlohmann::json j{{"levels", policy.levels()}};
  if (const auto t = policy.thresholds()) j["thresholds"] = *t;
  return j;
}

nlohmann::json evaluation_json(const analytic::PolicyEvaluation& e) {
  const analytic::Measures& m = e.measures;
  const analytic::StationarySummary& s = e.stationary.summary;
  return {{"policy", policy_json(e.policy)},
          {"lambda", m.lambda},
          {"p_loss", m.p_loss},
          {"p_obsolete", m.p_obsolete},
          {"p_served", m.p_served},
          {"p_starvation", m.p_starvation},
          {"mean_active_robots", m.mean_active_robots},
          {"mean_sojourn", e.mean_sojourn},
          {"mean_sojourn_served", e.mean_sojourn_served},
          {"mean_sojourn_obsolete", e.mean_sojourn_obsolete},
          {"cost", e.cost},
          {"level_probabilities", m.level_probabilities},
          {"mode_probabilities", m.mode_probabilities},
          {"mean_in_system", m.mean_in_system},
          {"mean_in_queue", m.mean_in_queue},
          {"method", analytic::method_name(s.method)},
          {"states", e.stationary.probabilities.size()},
          {"residual", s.residual},
          {"iterations", s.iterations},
          {"seconds", s.seconds}};
}

nlohmann::json sojourn_json(const analytic::SojournTimes& sojourn, analytic::PageFate fate) {
  nlohmann::json j{{"probability", sojourn.probability(fate)},
                   {"mean", sojourn.mean(fate)},
                   {"sd", sojourn.standard_deviation(fate)}};
  if (sojourn.probability(fate) > 0) {
    j["median"] = sojourn.quantile(fate, 0.5);
    j["p90"] = sojourn.quantile(fate, 0.9);
    j["p99"] = sojourn.quantile(fate, 0.99);
  } else {
    j["median"] = j["p90"] = j["p99"] = nullptr;
  }
  return j;
}

}  // namespace crawlq::app
