#pragma once
// Page refresh scenario files (interface.md, "Page refresh scheduling") -> model::RefreshModel.
#include <filesystem>
#include <string>

#include "model/refresh_model.hpp"

namespace crawlq::scenarios {

struct RefreshScenario {
  model::RefreshModel model;
  std::string source;
};

// ScenarioError ("file: refresh.key: detail") on every broken rule. `file` as written on a command
// line: a shipped scenario's name works too (shipped_files.hpp).
RefreshScenario load_refresh_scenario(const std::filesystem::path& file);
RefreshScenario parse_refresh_scenario(const std::string& text, const std::string& label);

}  // namespace crawlq::scenarios
