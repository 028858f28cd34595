#pragma once
// Requests read from and written to JSON documents, by the one list of fields (request_schema.hpp):
// the lab's bodies, the Python package's keywords and `crawlq CMD --request FILE` are such
// documents, each naming its fields in its caller's words.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "api/caller_words.hpp"
#include "api/compare_request.hpp"
#include "api/landscape_request.hpp"
#include "api/live_simulation_request.hpp"
#include "api/optimize_request.hpp"
#include "api/request_schema.hpp"
#include "api/simulate_request.hpp"
#include "api/simulation_choices.hpp"
#include "api/solve_request.hpp"
#include "api/sweep_request.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::api {

// What a front end gives beside the document: the scenario it read, what messages call it, whether
// a policy the document names by its file may be read (the lab reads no file a request names), and
// how its users give a policy when the scenario has none.
struct DocumentScenario {
  std::string source;
  model::Model model;
  std::optional<std::filesystem::path> policy_directory = {};  // none: a policy file is refused
  std::string how_to_give_policy = {};
};

// Each reads a document of `kind`'s fields; model::InputError naming the field in `caller`'s words
// for a field the kind does not have (with the known ones), a field `caller` does not take, a value
// of the wrong type, or a required field absent. The requests' own checks (check()) come after.
void check_document(const nlohmann::json& document, RequestKind kind, Caller caller);
// Where no file may be read (the lab): model::InputError naming `key`.table when `policy` (a policy
// section) names its table by a file rather than giving its robots as a list.
void refuse_table_file(const nlohmann::json& policy, const std::string& key);
SolveRequest solve_request(const nlohmann::json& document, const DocumentScenario& scenario,
                           Caller caller);
OptimizeRequest optimize_request(const nlohmann::json& document, const DocumentScenario& scenario,
                                 Caller caller);
SweepRequest sweep_request(const nlohmann::json& document, const DocumentScenario& scenario,
                           Caller caller);
LandscapeRequest landscape_request(const nlohmann::json& document, const DocumentScenario& scenario,
                                   Caller caller);
// A comparison's two policies and its settings (exactly `replications` run: no precision).
CompareRequest compare_request(const nlohmann::json& document, const DocumentScenario& scenario,
                               Caller caller);
LiveSimulationRequest live_simulation_request(const nlohmann::json& document,
                                              const DocumentScenario& scenario, Caller caller);
// The lab's simulated transient: a simulate request with times, on one thread, that stops within
// kLabTransientSeconds (what finished by then is the answer).
inline constexpr double kLabTransientSeconds = 5;
inline constexpr int kLabMostTransientReplications = 2000;
SimulateRequest transient_simulation_request(const nlohmann::json& document,
                                             const DocumentScenario& scenario, Caller caller);
// A simulate or validate document's settings, and its policy (the scenario's own when none).
SimulationChoices simulation_choices(const nlohmann::json& document, RequestKind kind,
                                     Caller caller);
model::ControlPolicy document_policy(const nlohmann::json& document, RequestKind kind,
                                     const DocumentScenario& scenario, Caller caller);

// The documents that read back to the same requests (keys as the lab and --request write them).
nlohmann::json to_document(const SolveRequest& request);
nlohmann::json to_document(const OptimizeRequest& request);
nlohmann::json to_document(const SweepRequest& request);
nlohmann::json to_document(const LandscapeRequest& request);
nlohmann::json to_document(const CompareRequest& request);
nlohmann::json to_document(const LiveSimulationRequest& request);
// The lab's simulated transient (transient_simulation_request's fields).
nlohmann::json to_document(const SimulateRequest& request);
// simulate's or validate's document (`kind`: validate's has full_chain).
nlohmann::json to_document(const SimulationChoices& choices, const model::ControlPolicy& policy,
                           RequestKind kind);

}  // namespace crawlq::api
