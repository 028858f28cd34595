#pragma once
// Scenario files (YAML, or JSON which is YAML) -> model::Model, under the rules of interface.md.
// Every broken rule throws ScenarioError: `paper.yaml: arrivals.modes[1].D[1] row 0: negative
// rate`.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/input_error.hpp"
#include "model/model.hpp"
#include "scenarios/scenario_error.hpp"

namespace crawlq::scenarios {

struct Scenario {
  model::Model model;
  // What `repair-diagonal: true` changed, one readable line each; empty otherwise.
  std::vector<std::string> repairs;
  std::string source;  // the `source:` citation, if any
};

// `file` as written on a command line: a shipped scenario's name works too (shipped_files.hpp).
Scenario load_scenario(const std::filesystem::path& file);
// For tests and tools: the same rules on text already in memory; `label` stands for the file name,
// and a policy table's file name starts from `directory`.
Scenario parse_scenario(const std::string& text, const std::string& label,
                        const std::filesystem::path& directory = ".");

// Whether `file` (YAML) is a queue scenario (a map with `arrivals`) rather than a policy file;
// a file that cannot be read or parsed is neither (load_scenario or load_policy then says why).
bool holds_scenario(const std::filesystem::path& file);

// A policy for `model` from its own file, as `--policy FILE` gives it: a CSV table (the chain's
// states, as `optimize --class markov --export-policy` writes), or YAML holding a `policy:` section
// of a scenario file (or its keys alone), as `optimize --export-policy` writes for the other
// classes. The rules are a scenario's; errors name the file.
model::ControlPolicy load_policy(const std::filesystem::path& file, const model::Model& model);
// The same from text in memory (YAML or JSON): `label` names it in errors, and a table's file name
// starts from `directory`.
model::ControlPolicy parse_policy(const std::string& text, const std::string& label,
                                  const model::Model& model,
                                  const std::filesystem::path& directory = ".");

}  // namespace crawlq::scenarios
