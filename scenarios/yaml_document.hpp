#pragma once
// What every scenario file shares, whatever model it describes: reading it, parsing it as YAML with
// line and column in errors, and turning a broken rule into a ScenarioError that starts with the file.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>

#include "model/input_error.hpp"
#include "scenarios/scenario_loader.hpp"
#include "scenarios/yaml_reader.hpp"

namespace crawlq::scenarios {

// The file's text; ScenarioError naming it when it cannot be opened.
std::string read_file(const std::filesystem::path& file);

// `build` turns the top-level mapping into a T; every error comes back as "label: key: detail".
template <class T, class Build>
T parse_yaml_document(const std::string& text, const std::string& label, Build build) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ScenarioError(
        fmt::format("{}: line {}, column {}: not valid YAML: {}", label, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  if (!root.IsMap()) throw ScenarioError(fmt::format("{}: expected a mapping of keys at the top level", label));
  try {
    return build(YamlReader(root, ""));
  } catch (const model::InputError& e) {
    throw ScenarioError(fmt::format("{}: {}", label, e.what()));
  } catch (const YAML::Exception& e) {
    throw ScenarioError(fmt::format("{}: {}", label, e.what()));
  }
}

}  // namespace crawlq::scenarios
