#pragma once
// `refresh` as a request (page refresh scheduling, CLW): one robot re-reading N pages under a
// policy; the exact obsolescence rates, cost and bounds, and on request a simulation with 95%
// intervals; the JSON of `crawlq refresh --json`.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "analytic/refresh/refresh_analysis.hpp"
#include "api/caller_words.hpp"
#include "model/refresh_model.hpp"
#include "sim/refresh_simulator.hpp"

namespace crawlq::api {

struct RefreshRequest {
  std::string source;  // what messages call the model: its file's name
  model::RefreshModel model;
  bool simulate = false;
  std::uint64_t seed = 1;
  int replications = 10;
  std::optional<double> horizon;  // default: about 2000 reads of each page
  int threads = 0;
  Caller caller = Caller::kCommandLine;  // whose words the messages use

  // False with `why` naming the field (in the caller's words) and its value.
  bool is_valid(std::string* why) const;
};

struct RefreshResult {
  analytic::RefreshAnalysis analysis;
  std::optional<sim::RefreshSimulationResult> simulated;
  sim::RefreshSimulationPlan plan;  // the simulation's, when there is one
};

// Throws model::InputError when the request is not valid, the policy's cycle cannot be read, or the
// simulation would exceed the reads one request may take (5e9) or the machine's memory.
RefreshResult refresh(const RefreshRequest& request);
nlohmann::json to_json(const RefreshRequest& request, const RefreshResult& result);
// "randomized", "cyclic" or "golden-ratio".
const char* refresh_kind_name(model::RefreshPolicyKind kind);

}  // namespace crawlq::api
