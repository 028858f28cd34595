#pragma once
// The shipped scenario files of the queue model, for the crosschecks that run over all of them:
// each such test records what it compared, and a file it stops reaching (skipped, renamed, removed)
// fails there instead of passing with one comparison fewer.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace crawlq::crosscheck {

struct ShippedScenario {
  std::string name;  // "paper-example-1"
  std::filesystem::path path;
};

// scenarios/data/*.yaml, by name, without the refresh-*.yaml of the second paper's model.
std::vector<ShippedScenario> shipped_queue_scenarios();

// The files every such crosscheck must compare: the paper's two examples and the teaching files.
const std::set<std::string>& expected_queue_scenarios();

// The expected names missing from `compared`, comma-separated ("" when none).
std::string missing_scenarios(const std::set<std::string>& compared);

}  // namespace crawlq::crosscheck
