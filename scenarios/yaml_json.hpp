#pragma once
// A scenario's YAML in its JSON form, for the callers that hold scenarios as data (the Python
// package's dicts, the lab's requests): mappings, lists, numbers, booleans, null and strings, with
// a quoted scalar kept a string ("5" stays "5"). JSON is YAML, so the form reads back as the same
// scenario: every number prints in the shortest text that reads back as the same double.
#include <nlohmann/json.hpp>
#include <string>

namespace crawlq::scenarios {

// ScenarioError "label: line L, column C: ..." when the text is not YAML.
nlohmann::json yaml_to_json(const std::string& text, const std::string& label);

}  // namespace crawlq::scenarios
