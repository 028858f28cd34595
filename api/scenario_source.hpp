#pragma once
// A scenario as a program holds it rather than as a file on disk: its text (YAML or JSON), the name
// messages give it, the directory its relative file names start from, and changes to apply to the
// model read (any parameter of `sweep --param`, in order). The Python package's Scenario and the
// lab's requests are this; both read it here, so a changed copy means the same model in both.
#include <string>
#include <utility>
#include <vector>

#include "scenarios/scenario_loader.hpp"

namespace crawlq::api {

struct ScenarioSource {
  std::string text, label, directory = ".";
  std::vector<std::pair<std::string, double>> changes;
};

// The scenario with its changes applied; model::InputError naming the label, the parameter and the
// value when a change is unknown, means nothing for the model, or is out of range.
scenarios::Scenario read_scenario(const ScenarioSource& source);

}  // namespace crawlq::api
