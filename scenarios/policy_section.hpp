#pragma once
// The `policy:` section of a scenario (and of a request document, a policy file, an MPI message):
// its keys, how each form of model::ControlPolicy is read from them, and how it is written back.
// Each form's keys and reader are found by its type, so a form added to the variant does not
// compile until it has both, and every front end that sends a section takes it at once.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/control_policy.hpp"
#include "scenarios/yaml_reader.hpp"

namespace crawlq::scenarios {

// What a section is read against: the model's sizes, and where a table's file name starts from.
struct PolicyDimensions {
  int modes = 1;
  int capacity = 1;
  int arrival_phases = 1;
  int service_phases = 1;
  int clock_phases = 1;
  std::filesystem::path directory;
};

// Every key a section may hold, the variant's forms in order ("thresholds", "levels", ...).
const std::vector<std::string>& policy_keys();

// The section under `section` (one key of policy_keys()).
model::ControlPolicy read_policy_section(const YamlReader& section,
                                         const PolicyDimensions& dimensions);

// The section that reads back as `policy` (a table by its robots, never by its file).
nlohmann::json policy_section(const model::ControlPolicy& policy);

}  // namespace crawlq::scenarios
