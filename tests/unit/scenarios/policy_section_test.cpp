// The `policy:` section: every form of model::ControlPolicy is read from its keys and written back
// as a section that reads as the same policy, and the keys a section may hold are exactly those the
// forms use.
#include "scenarios/policy_section.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "model/input_error.hpp"
#include "model/simulation_policy.hpp"
#include "scenarios/scenario_loader.hpp"

using namespace crawlq;

namespace {

const model::Model& paper() {
  static const scenarios::Scenario scenario = scenarios::load_scenario(
      std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data/paper-example-1.yaml");
  return scenario.model;
}

// A full-state table of robots that differ from state to state, as a section.
std::string table_section(const model::Model& m) {
  const long long states = model::chain_states(m.capacity, m.arrivals.phases(), m.service.phases(),
                                               m.obsolescence ? m.obsolescence->phases() : 1);
  std::string list;
  for (long long s = 0; s < states; ++s)
    list += (s == 0 ? "" : ", ") + std::to_string(1 + (s * 7 + 3) % m.modes());
  return R"({"table": [)" + list + "]}";
}

}  // namespace

TEST_CASE("policy section: every form is written as a section that reads back as itself",
          "[scenarios]") {
  const model::Model& m = paper();
  const std::vector<std::string> sections{
      R"({"thresholds": [-1, 2, 3]})",
      R"({"levels": [3, 1, 2, 2, 1, 1]})",
      R"({"hysteresis": {"high": 3, "low": 1, "switch_off": 4, "switch_on": 1}})",
      R"({"phase-aware": [[3, 3], [3, 2], [2, 2], [2, 1], [1, 1], [1, 1]]})",
      R"({"memory": [[4, 4, 3, 3], [4, 3, 3, 2], [2, 2, 2, 2], [2, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 2]]})",
      table_section(m),
  };
  std::set<std::size_t> forms;
  std::set<std::string> keys;
  for (const std::string& text : sections) {
    INFO(text);
    const model::ControlPolicy policy = scenarios::parse_policy(text, "policy", m);
    const nlohmann::json written = scenarios::policy_section(policy);
    CHECK(written == nlohmann::json::parse(text));
    CHECK(scenarios::parse_policy(written.dump(), "policy", m) == policy);
    forms.insert(policy.index());
    keys.insert(written.begin().key());
  }
  // A form added to the variant needs an example here.
  CHECK(forms.size() == std::variant_size_v<model::ControlPolicy>);
  const std::vector<std::string>& known = scenarios::policy_keys();
  CHECK(std::set<std::string>(known.begin(), known.end()) == keys);
  CHECK(known.size() == keys.size());
}

TEST_CASE("policy section: a section of no known key or of two is refused with every key",
          "[scenarios]") {
  const model::Model& m = paper();
  const auto refusal = [&](const std::string& text) {
    try {
      scenarios::parse_policy(text, "p.yaml", m);
    } catch (const model::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(
      refusal(R"({"thresholds": [1, 2, 3], "memory": [[1]]})"),
      Catch::Matchers::Contains(
          "give exactly one of thresholds, levels, phase-aware, hysteresis, memory or table"));
  CHECK_THAT(refusal(R"({"limits": [1, 2, 3]})"), Catch::Matchers::Contains("limits"));
  CHECK_THAT(refusal(R"({"limits": [1, 2, 3]})"), Catch::Matchers::Contains("hysteresis"));
}
