#pragma once
// What every scenario file shares, whatever model it describes: reading it, parsing it as YAML with
// line and column in errors, and turning a broken rule into a ScenarioError that starts with the
// file.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>

#include "model/input_error.hpp"
#include "scenarios/scenario_error.hpp"
#include "scenarios/yaml_reader.hpp"

namespace crawlq::scenarios {

// The file's text (model/text_file.hpp: a regular file of 64 MiB at most, UTF-8); ScenarioError
// naming it otherwise.
std::string read_file(const std::filesystem::path& file);

// The text parsed as YAML: ScenarioError "label: line L, column C: ..." when it is not, including
// nesting deeper than any scenario needs (which would exhaust the parser's stack) and aliases that
// expand to more nodes than any scenario holds or into themselves (every reader of the node may
// walk it whole, recursively).
YAML::Node load_yaml(const std::string& text, const std::string& label);

// `build` turns the top-level mapping into a T; every error comes back as "label: key: detail".
template <class T, class Build>
T parse_yaml_document(const std::string& text, const std::string& label, Build build) {
  const YAML::Node root = load_yaml(text, label);
  if (!root.IsMap())
    throw ScenarioError(fmt::format("{}: expected a mapping of keys at the top level", label));
  try {
    return build(YamlReader(root, ""));
  } catch (const ScenarioError&) {  // already names the file
    throw;
  } catch (const model::InputError& e) {
    throw ScenarioError(fmt::format("{}: {}", label, e.what()));
  } catch (const YAML::Exception& e) {
    throw ScenarioError(fmt::format("{}: {}", label, e.what()));
  }
}

}  // namespace crawlq::scenarios
