#include "tests/crosscheck/shipped_scenarios.hpp"

#include <algorithm>

namespace crawlq::crosscheck {

std::vector<ShippedScenario> shipped_queue_scenarios() {
  std::vector<ShippedScenario> out;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::filesystem::path(CRAWLQ_SOURCE_DIR) / "scenarios/data")) {
    const std::string name = entry.path().stem().string();
    if (entry.path().extension() != ".yaml" || name.rfind("refresh-", 0) == 0) continue;
    out.push_back({name, entry.path()});
  }
  // The file system's order differs between machines: sorted, a failure reads the same anywhere.
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

const std::set<std::string>& expected_queue_scenarios() {
  static const std::set<std::string> names{"paper-example-1", "paper-real-data",
                                           "teaching-hysteresis", "teaching-two-robots"};
  return names;
}

std::string missing_scenarios(const std::set<std::string>& compared) {
  std::string out;
  for (const std::string& name : expected_queue_scenarios())
    if (!compared.count(name)) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace crawlq::crosscheck
