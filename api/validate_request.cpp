#include "api/validate_request.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>

#include "analytic/stationary/clock_lumping.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "analytic/stationary/policy_forms.hpp"
#include "api/json_output.hpp"
#include "api/replayed_log.hpp"
#include "api/request_checks.hpp"
#include "api/simulate_request.hpp"
#include "api/solve_request.hpp"
#include "model/input_error.hpp"
#include "sim/policy.hpp"
#include "validation/transient_comparison.hpp"

namespace crawlq::api {

namespace {
// Where the exact side solved `solved` in place of the request's model with fewer clock phases.
std::optional<ValidateResult::Lumping> exact_lumping(const ValidateRequest& request,
                                                     const model::Model& solved) {
  const std::optional<double> rate = analytic::lumped_clock_rate(solved, request.model);
  if (!rate) return std::nullopt;
  return ValidateResult::Lumping{
      .rate = *rate,
      .states_solved = analytic::estimate_memory(solved).states,
      .states_full =
          analytic::estimate_memory(validated_exact_model(request.model, request.policy, true))
              .states};
}

// validate --times: both engines' transients from the same start, through the same outage.
ValidateResult validate_over_time(const ValidateRequest& request, const std::string& absent) {
  const validation::SimulationSettings& settings = request.settings;
  std::optional<SolveResult> exact;
  if (absent.empty())
    exact = solve({.source = request.source,
                   .model = request.model,
                   .policy = request.policy,
                   .threads = settings.threads,
                   .times = settings.times,
                   .from = settings.from,
                   .from_file = settings.from_file,
                   .outage = settings.outage,
                   .full_chain = settings.full_chain,
                   .caller = request.caller});
  const SimulateResult simulated =
      simulate({.source = request.source,
                .model = request.simulated_model ? *request.simulated_model : request.model,
                .policy = request.policy,
                .settings = settings,
                .caller = request.caller});
  // The log the simulator replayed, when it replayed one, named as the long run's comparison names
  // it.
  return {
      validation::compare_transients(exact ? &*exact->transient : nullptr, *simulated.transient),
      absent, simulated.replayed_arrivals,
      exact && exact->lumping
          ? exact_lumping(request, validated_exact_model(request.model, request.policy, false))
          : std::nullopt};
}
}  // namespace

ValidateResult validate(const ValidateRequest& request) {
  if (request.model.rhythm && !request.settings.times.empty())
    throw model::InputError(
        std::string(field_name(request.caller, Field::kTimes)),
        "a transient under a rhythm is not compared yet; validate compares the periodic long run");
  // The log replayed by the simulator alone: the exact engine answers for the fitted law.
  if (!request.settings.arrivals_log.empty() && request.settings.times.empty() &&
      !(request.simulated_model && request.simulated_model->replayed_arrivals)) {
    ValidateRequest replay = request;
    replay.simulated_model = with_replayed_log(request.simulated_model.value_or(request.model),
                                               request.settings, request.caller);
    ValidateResult result = validate(replay);
    result.replayed_arrivals = replayed_log_json(*replay.simulated_model);
    return result;
  }
  std::string absent = analytic::exact_refusal(request.policy);
  if (absent.empty()) absent = request.exact_absent;
  if (!request.settings.times.empty()) return validate_over_time(request, absent);
  if (absent.empty()) absent = request.exact_absent;
  const model::Model& simulated_model =
      request.simulated_model ? *request.simulated_model : request.model;
  const std::unique_ptr<sim::Policy> policy = sim::make_policy(simulated_model, request.policy);
  const std::optional<model::ControlPolicy> exact_policy =
      absent.empty() ? std::optional<model::ControlPolicy>(request.policy) : std::nullopt;
  const model::Model exact_model =
      validated_exact_model(request.model, request.policy, request.settings.full_chain);
  try {
    return {validation::compare_engines(exact_model, exact_policy, absent, simulated_model, *policy,
                                        request.settings),
            absent, nullptr, absent.empty() ? exact_lumping(request, exact_model) : std::nullopt};
  } catch (const std::invalid_argument&
               e) {  // the two models do not pair, or the time limit is too short
    throw model::InputError(request.source, e.what());
  }
}

model::Model validated_exact_model(const model::Model& model, const model::ControlPolicy& policy,
                                   bool full_chain) {
  model::Model solved =
      full_chain ? model : analytic::lumped_clock_model(model, policy).value_or(model);
  // Under the policy validated, not the file's: one that remembers the mode adds it to the state.
  solved.policy = policy;
  return solved;
}

std::string exact_engine_absence(const model::Model& model, const model::ControlPolicy& policy,
                                 const validation::SimulationSettings& settings) {
  if (std::string why = analytic::exact_refusal(policy); !why.empty()) return why;
  // A start from a policy file's long run is a vector over every state: solve keeps the phases.
  const bool full_chain = settings.full_chain || !settings.from_file.empty();
  return exact_engine_refusal(validated_exact_model(model, policy, full_chain));
}

void ValidateSummary::count(const ValidateResult& result) {
  if (!result.exact_absent.empty())
    ++simulated_only;
  else if (result.comparison.agrees())
    ++agree;
  else
    ++differ;
}

nlohmann::json to_json(const nlohmann::json& scenarios, const ValidateSummary& summary) {
  return {{"scenarios", scenarios},
          {"summary",
           {{"agree", summary.agree},
            {"differ", summary.differ},
            {"simulated_only", summary.simulated_only}}},
          {"agrees", summary.agrees()}};
}

nlohmann::json to_json(const ValidateRequest& request, const ValidateResult& result) {
  const validation::EngineComparison& r = result.comparison;
  nlohmann::json measures = nlohmann::json::array();
  for (const auto& m : r.measures) {
    nlohmann::json j{{"name", m.name},
                     {"mean", m.simulated.mean},
                     {"half_width", m.simulated.half_width},
                     {"verdict", validation::verdict_name(m.verdict)}};
    j["exact"] = m.exact ? nlohmann::json(*m.exact) : nlohmann::json(nullptr);
    if (m.t) j["t"] = *m.t;
    if (m.piece) {
      j["piece"] = *m.piece;
      j["start"] = request.model.rhythm->piece_start(*m.piece);
    }
    // JSON has no infinity: a difference with no spread at all is reported as null.
    j["z"] = m.exact && std::isfinite(m.z) ? nlohmann::json(m.z) : nlohmann::json(nullptr);
    if (m.unseen) j["unseen"] = true;
    measures.push_back(j);
  }
  nlohmann::json j{{"file", request.source},
                   {"name", request.model.name},
                   {"time_unit", request.model.time_unit},
                   {"policy", control_policy_json(request.policy)},
                   {"exact_engine", result.exact_absent.empty()},
                   {"arrivals_log", result.replayed_arrivals},
                   {"z_bound", r.z_bound},
                   {"measures", measures},
                   {"replications", r.replications},
                   {"seed", request.settings.seed},
                   {"precise", r.precise},
                   {"events", r.events},
                   {"seconds", r.seconds},
                   {"seconds_exact", r.seconds_exact},
                   {"seconds_warmup", r.seconds_warmup},
                   {"seconds_replications", r.seconds_replications},
                   {"agrees", r.agrees()}};
  if (!result.exact_absent.empty()) j["exact_engine_absent"] = result.exact_absent;
  if (const auto& lumped = result.lumping)
    j["lumping"] =
        lumped_chain_text(lumped->rate, request.model.time_unit, "the exact engine's chain",
                          chain_states_text(request.model, lumped->states_solved),
                          chain_states_text(request.model, lumped->states_full), "measures");
  const validation::SimulationSettings& s = request.settings;
  // Each replication's observed time, as the caller resolved it (the default at the pace of what
  // the simulator runs: a replayed log's own).
  if (s.times.empty() && s.horizon) j["horizon"] = *s.horizon;
  if (!s.times.empty()) {
    j["times"] = s.times;
    j["from"] = s.from_file.empty() ? std::string(analytic::kTransientStartNames.name(s.from))
                                    : s.from_file;
    j["outage"] = s.outage;
  }
  return j;
}

}  // namespace crawlq::api
