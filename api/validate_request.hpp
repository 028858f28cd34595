#pragma once
// `validate` as a request, one scenario at a time: both engines on one model and policy, each
// measure's exact value beside the simulated interval with a verdict; the JSON of one entry of
// `crawlq validate --json`'s "scenarios".
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "api/caller_words.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"
#include "validation/engine_comparison.hpp"

namespace crawlq::api {

struct ValidateRequest {
  std::string source;  // the scenario's file name, as messages and the JSON name it
  model::Model model;
  model::ControlPolicy policy;
  validation::SimulationSettings settings;
  // The simulator runs this model instead (same K and modes): how far does an approximation move
  // the answer? Nothing: the same model.
  std::optional<model::Model> simulated_model = std::nullopt;
  // Why the exact engine is not to run, beyond the policy's form (which is checked here): the
  // caller's judgement of the chain against memory. Empty: run it.
  std::string exact_absent = {};
  Caller caller = Caller::kCommandLine;  // whose words the messages use
};

struct ValidateResult {
  validation::EngineComparison comparison;
  std::string exact_absent;  // why only the simulator ran; empty when both did
  // The log the simulator replayed in place of the arrival law (replayed_log_json); null: none.
  nlohmann::json replayed_arrivals = nullptr;
  // Where the exact side's chain left the clock's phases out: the rate each exits at and the two
  // chains' sizes (validate --json's "lumping" says it in words).
  struct Lumping {
    double rate = 0, states_solved = 0, states_full = 0;
  };
  std::optional<Lumping> lumping = std::nullopt;
};

// Throws model::InputError naming the source when the two models do not pair or the time limit
// leaves fewer than 2 replications.
ValidateResult validate(const ValidateRequest& request);
nlohmann::json to_json(const ValidateRequest& request, const ValidateResult& result);

// Why the exact engine cannot take `model` under `policy` (the policy's form, or the chain against
// this machine's memory: the one `settings` has it solve, lumped unless they ask for the full
// chain or start from a policy file's long run), for ValidateRequest::exact_absent; empty when it
// can.
std::string exact_engine_absence(const model::Model& model, const model::ControlPolicy& policy,
                                 const validation::SimulationSettings& settings);

// The model whose chain the exact side of a validation solves, under `policy`: `model` with its
// clock lumped (analytic/stationary/clock_lumping.hpp) unless `full_chain` or the policy names
// clock phases.
model::Model validated_exact_model(const model::Model& model, const model::ControlPolicy& policy,
                                   bool full_chain);

// The verdict over the scenarios of one `validate`, counted one result at a time.
struct ValidateSummary {
  int agree = 0, differ = 0, simulated_only = 0;
  void count(const ValidateResult& result);
  bool agrees() const { return differ == 0; }
};
// The whole of `validate --json`: the scenarios' entries (to_json of each), the summary, the
// verdict.
nlohmann::json to_json(const nlohmann::json& scenarios, const ValidateSummary& summary);

}  // namespace crawlq::api
