#include "server/lab_api.hpp"

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analytic/stationary/memory_estimate.hpp"
#include "api/describe_request.hpp"
#include "api/json_output.hpp"
#include "api/landscape_request.hpp"
#include "api/live_simulation_request.hpp"
#include "api/log_ensemble.hpp"
#include "api/optimize_request.hpp"
#include "api/request_documents.hpp"
#include "api/scenario_source.hpp"
#include "api/simulate_request.hpp"
#include "model/input_error.hpp"
#include "model/thread_count.hpp"
#include "scenarios/yaml_json.hpp"
#include "scenarios/yaml_reader.hpp"
#include "server/lab_body.hpp"

namespace crawlq::server {

namespace {

// The envelope's value at `key` as T (the scenario's label, its changes), or `fallback` when
// absent; InputError naming the key when it is not a T. The request's own fields are read by the
// schema.
template <class T>
T field(const nlohmann::json& body, const char* key, T fallback) {
  const auto found = body.find(key);
  if (found == body.end() || found->is_null()) return fallback;
  try {
    return found->get<T>();
  } catch (const nlohmann::json::exception&) {
    throw model::InputError(key, fmt::format("'{}' is not the kind of value this key takes",
                                             scenarios::shortened(safe_dump(*found))));
  }
}

constexpr const char* kHowToGivePolicy = "give \"policy\": {\"thresholds\": [...]} or another form";

struct LabScenario {
  std::string label;
  scenarios::Scenario scenario;
  api::ScenarioSource source;  // what it was read from, the changes included
};

LabScenario read(const nlohmann::json& body) {
  if (!body.is_object())
    throw model::InputError("the request's body must be a JSON object with a \"scenario\"");
  const auto scenario = body.find("scenario");
  if (scenario == body.end() || !(scenario->is_object() || scenario->is_string()))
    throw model::InputError(
        "scenario",
        "give the scenario as an object (its YAML's JSON form) or as the text of a file");
  // Text as a file holds it (YAML, line and column in errors), or the object form.
  api::ScenarioSource source{
      .text = scenario->is_string() ? scenario->get<std::string>() : scenario->dump(),
      .label = field<std::string>(body, "name", "scenario"),
      .directory = ".",
      .changes = {}};
  const nlohmann::json form =
      scenario->is_string() ? scenarios::yaml_to_json(scenario->get<std::string>(), source.label)
                            : *scenario;
  if (form.is_object() && form.contains("policy"))
    api::refuse_table_file(form.at("policy"), "policy");
  const nlohmann::json changes = field<nlohmann::json>(body, "changes", nlohmann::json::array());
  if (!changes.is_array())
    throw model::InputError("changes", "give a list of [\"parameter\", value]");
  for (const auto& change : changes) {
    if (!change.is_array() || change.size() != 2 || !change[0].is_string() ||
        !change[1].is_number())
      throw model::InputError("changes", fmt::format("{}: give [\"parameter\", value]",
                                                     scenarios::shortened(safe_dump(change))));
    source.changes.emplace_back(change[0].get<std::string>(), change[1].get<double>());
  }
  scenarios::Scenario read = api::read_scenario(source);
  return {source.label, std::move(read), std::move(source)};
}

// The request's own fields: the body less the scenario it runs on.
nlohmann::json fields_of(const nlohmann::json& body) {
  nlohmann::json fields = body;
  for (const char* envelope : {"scenario", "name", "changes"}) fields.erase(envelope);
  return fields;
}

// The lab reads no file a request names.
api::DocumentScenario document_scenario(const LabScenario& s) {
  return {.source = s.label,
          .model = s.scenario.model,
          .policy_directory = std::nullopt,
          .how_to_give_policy = kHowToGivePolicy};
}

// The wait for the request's share of the lab, held while the work runs (nothing without a gate).
std::shared_ptr<void> admitted(const LabRun& run, double bytes, bool long_work) {
  return run.admit ? run.admit(bytes, long_work) : nullptr;
}

// A solve this small answers in a blink: it does not queue behind optimisations.
constexpr double kLargestQuickStates = 2e5;
// What solves side by side may hold beyond what the gate admitted for one (the landscape's).
constexpr double kSideBySideBytes = 256.0 * (1 << 20);
// A simulation holds a few pages' clocks and the path's events: far below this.
constexpr double kSimulationBytes = 64.0 * (1 << 20);

}  // namespace

std::function<void(const LabEmit&)> lab_simulation(const nlohmann::json& body, const LabRun& run) {
  const LabScenario s = read(body);
  const auto request = std::make_shared<const api::LiveSimulationRequest>(
      api::live_simulation_request(fields_of(body), document_scenario(s), api::Caller::kLab));
  const api::LiveSimulationPlan plan = api::check(*request);
  std::shared_ptr<void> ticket = admitted(run, kSimulationBytes, true);
  return [request, plan, ticket, cancel = run.cancel](const LabEmit& emit) {
    api::live_simulation(*request, plan, emit, cancel);
  };
}

nlohmann::json lab_solve(const nlohmann::json& body, const LabRun& run) {
  const LabScenario s = read(body);
  api::SolveRequest request =
      api::solve_request(fields_of(body), document_scenario(s), api::Caller::kLab);
  request.threads = 1;  // requests run side by side; one thread each
  // Refused before it waits for memory: a request that cannot run never holds a place in the queue.
  const analytic::MemoryEstimate need = api::check(request);
  const auto ticket = admitted(run, need.bytes,
                               request.sojourn || request.sensitivity ||
                                   request.sensitivity_rates || need.states > kLargestQuickStates);
  return api::to_json(request, api::solve(request, run.cancel));
}

nlohmann::json lab_transient_simulation(const nlohmann::json& body, const LabRun& run) {
  const LabScenario s = read(body);
  const api::SimulateRequest request =
      api::transient_simulation_request(fields_of(body), document_scenario(s), api::Caller::kLab);
  const auto ticket = admitted(run, kSimulationBytes, true);
  return api::to_json(request, api::simulate(request, run.cancel));
}

nlohmann::json lab_optimize(const nlohmann::json& body, const LabRun& run) {
  const LabScenario s = read(body);
  api::OptimizeRequest request =
      api::optimize_request(fields_of(body), document_scenario(s), api::Caller::kLab);
  request.threads = 1;
  const auto ticket = admitted(run, api::check(request).bytes, true);
  return api::to_json(request, api::optimize(request, run.cancel));
}

nlohmann::json lab_log_ensemble(const nlohmann::json& body, const LabRun& run) {
  const LabScenario s = read(body);
  const nlohmann::json fields = fields_of(body);
  // The log comes as its text: the lab reads no file.
  const nlohmann::json log = field<nlohmann::json>(fields, "log", nullptr);
  if (!log.is_object() || !log.contains("text") || !log.at("text").is_string())
    throw model::InputError(
        "log",
        "give {\"name\": \"crawl.log\", \"text\": \"the log's lines\"}: the lab reads no file");
  nlohmann::json solve_fields = fields;
  for (const char* own : {"log", "bootstrap", "seed"}) solve_fields.erase(own);
  // The policy, and any other field, read as solve reads them.
  api::LogEnsembleRequest request{
      .base = s.source,
      .policy = api::solve_request(solve_fields, document_scenario(s), api::Caller::kLab).policy,
      .log_text = log.at("text").get<std::string>(),
      .log_label = field<std::string>(log, "name", "the log"),
      .refits = field<int>(fields, "bootstrap", 20),
      .seed = field<std::uint64_t>(fields, "seed", 1),
      .caller = api::Caller::kLab,
      .most_states = api::kLabSensitivityStates};
  const auto ticket = admitted(run, kSimulationBytes, true);  // solves of 50,000 states at most
  return api::log_ensemble(request, run.cancel);
}

nlohmann::json lab_describe(const nlohmann::json& body) {
  const LabScenario s = read(body);
  return api::describe({.model = s.scenario.model, .repairs = s.scenario.repairs});
}

nlohmann::json lab_scenario_form(const nlohmann::json& body) {
  const LabScenario s = read(body);
  const nlohmann::json& scenario = body.at("scenario");
  return {{"scenario", scenario.is_string()
                           ? scenarios::yaml_to_json(scenario.get<std::string>(), s.label)
                           : scenario}};
}

nlohmann::json lab_landscape(const nlohmann::json& body, const LabRun& run) {
  const LabScenario s = read(body);
  api::LandscapeRequest request =
      api::landscape_request(fields_of(body), document_scenario(s), api::Caller::kLab);
  const double bytes = api::check(request).bytes;
  const auto ticket = admitted(run, bytes, true);
  // Its solves side by side on the cores nobody else uses now, where one solve is small: each holds
  // its own chain, and the gate admitted one.
  const int side_by_side = static_cast<int>(std::min<double>(
      model::available_cores(), std::max(1.0, kSideBySideBytes / std::max(bytes, 1.0))));
  const std::unique_ptr<WorkGate::Loan> extra =
      run.borrow_cores && side_by_side > 1 ? run.borrow_cores(side_by_side - 1) : nullptr;
  request.threads = 1 + (extra ? extra->slots() : 0);
  return api::to_json(request, api::landscape(request, run.cancel));
}

}  // namespace crawlq::server
