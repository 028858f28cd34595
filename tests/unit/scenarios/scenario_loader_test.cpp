#include "scenarios/scenario_loader.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <string>

#include "model/message_text.hpp"
#include "scenarios/yaml_reader.hpp"

using crawlq::scenarios::load_scenario;
using crawlq::scenarios::parse_scenario;
using crawlq::scenarios::ScenarioError;

namespace {
const std::string kData = std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data/";

// A valid file to break one rule at a time.
const std::string kValid = R"(
name: t
capacity: 3
arrivals:
  kind: per-mode
  modes:
    - D: [[[-1, 0.5], [0.5, -1]], [[0.5, 0], [0, 0.5]]]
    - D: [[[-2, 1], [1, -2]], [[1, 0], [0, 1]]]
service: {beta: [0.4, 0.6], S: [[-3, 1], [2, -3]]}
obsolescence: {gamma: [1], Gamma: [[-0.5]]}
costs: {loss: 1, robot: 2}
policy: {thresholds: [1]}
)";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

void require_refused(const std::string& text, const std::string& key, const std::string& value) {
  INFO(text);
  try {
    parse_scenario(text, "broken.yaml");
    FAIL("accepted a broken file");
  } catch (const ScenarioError& e) {
    const std::string message = e.what();
    INFO(message);
    CHECK(message.rfind("broken.yaml: ", 0) == 0);
    CHECK(message.find(key) != std::string::npos);
    CHECK(message.find(value) != std::string::npos);
  }
}
}  // namespace

TEST_CASE("every shipped scenario loads", "[scenarios]") {
  for (const char* file :
       {"paper-example-1.yaml", "paper-real-data.yaml", "teaching-two-robots.yaml"}) {
    INFO(file);
    const auto s = load_scenario(kData + file);
    CHECK(s.model.policy.has_value());
    CHECK_FALSE(s.source.empty());
  }
}

TEST_CASE("the paper's example has the printed intensities", "[scenarios]") {
  const auto s = load_scenario(kData + "paper-example-1.yaml");
  const auto& a = s.model.arrivals;
  REQUIRE(a.modes() == 4);
  // Printed values, within one unit of their last digit (the paper truncates some, rounds others).
  const double lambda[] = {1.28, 2.41, 3.125, 4.64};
  const double lambda_unit[] = {0.01, 0.01, 0.001, 0.01};
  const double group[] = {0.853, 1.208, 2.5, 1.43};
  const double group_unit[] = {0.001, 0.001, 0.1, 0.01};
  for (int r = 1; r <= 4; ++r) {
    INFO("mode " << r);
    CHECK(a.mode(r).fundamental_rate() == Approx(lambda[r - 1]).margin(lambda_unit[r - 1]));
    CHECK(a.mode(r).group_rate() == Approx(group[r - 1]).margin(group_unit[r - 1]));
  }
  CHECK(s.model.level_map()->levels() == std::vector<int>{3, 3, 3, 1, 1, 1});
  CHECK(s.repairs.empty());
}

TEST_CASE("the real-data example's rounded D0 is repaired and reported", "[scenarios]") {
  const auto s = load_scenario(kData + "paper-real-data.yaml");
  CHECK(s.repairs.size() == 2);
  const auto& a = s.model.arrivals;
  // Printed lambda^(r): 0.0153, 0.0307, 0.046, 0.061.
  CHECK(a.mode(1).fundamental_rate() == Approx(0.0153).margin(0.00006));
  CHECK(a.mode(4).fundamental_rate() == Approx(0.061).margin(0.0003));
  // Without the repair the printed diagonal breaks the row-sum rule.
  const std::string text = [] {
    std::ifstream in(kData + "paper-real-data.yaml");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  require_refused(replace(text, "\nrepair-diagonal: true", "\nrepair-diagonal: false"),
                  "arrivals.base.D row 0", "!= 0");
}

TEST_CASE("each rule of interface.md refuses a broken file naming key and value", "[scenarios]") {
  REQUIRE_NOTHROW(parse_scenario(kValid, "valid.yaml"));
  require_refused(replace(kValid, "[[0.5, 0], [0, 0.5]]", "[[0.5, -0.01], [0, 0.5]]"),
                  "arrivals.modes[0].D[1] row 0", "-0.01");
  require_refused(replace(kValid, "[[-2, 1], [1, -2]]", "[[-2, 1], [1, -2.5]]"),
                  "arrivals.modes[1].D row 1", "sum -0.5");
  require_refused(replace(kValid, "beta: [0.4, 0.6]", "beta: [0.5, 0.6]"), "service.beta",
                  "sum 1.1");
  require_refused(replace(kValid, "gamma: [1]", "gamma: [0.9]"), "obsolescence.gamma", "sum 0.9");
  require_refused(
      replace(kValid, "S: [[-3, 1], [2, -3]]", "S: [[-3, 1, 0], [2, -3, 0], [0, 0, -1]]"),
      "service.S", "3x3");
  require_refused(replace(kValid, "[[-2, 1], [1, -2]], [[1, 0], [0, 1]]", "[[-2]], [[2]]"),
                  "arrivals.modes", "mode 2 has 1 phases");
  require_refused(replace(kValid, "S: [[-3, 1], [2, -3]]", "S: [[-3, -1], [2, -3]]"),
                  "service.S row 0", "negative rate -1");
  require_refused(replace(kValid, "Gamma: [[-0.5]]", "Gamma: [[0.5]]"), "obsolescence.Gamma row 0",
                  "sum 0.5 > 0");
  require_refused(replace(kValid, "thresholds: [1]", "thresholds: [4]"), "policy.thresholds[0]",
                  "4");
  require_refused(replace(kValid, "thresholds: [1]", "thresholds: [1, 2]"), "policy.thresholds",
                  "2 values");
  require_refused(replace(kValid, "policy: {thresholds: [1]}", "policy: {levels: [2, 1]}"),
                  "policy.levels", "2 values");
  require_refused(replace(kValid, "policy: {thresholds: [1]}", "policy: {levels: [2, 1, 3, 1]}"),
                  "policy.levels[2]", "3");
  require_refused(replace(kValid, "costs: {loss: 1, robot: 2}", "costs: {loss: 1, robots: 2}"),
                  "costs.robots", "unknown key");
  require_refused(replace(kValid, "name: t", "name: t\ncapacty: 3"), "capacty", "unknown key");
  require_refused(replace(kValid, "capacity: 3", "capacity: 0"), "capacity", "0");
  require_refused(replace(kValid, "capacity: 3", "capacity: three"), "capacity", "'three'");
  require_refused(replace(kValid, "costs: {loss: 1, robot: 2}", "costs: {loss: -1}"), "costs.loss",
                  "-1");
  require_refused(replace(kValid, "kind: per-mode", "kind: per_mode"), "arrivals.kind", "per_mode");
  require_refused(replace(kValid, "capacity: 3\n", "admission: some\ncapacity: 3\n"), "admission",
                  "some");
  require_refused(replace(kValid, "capacity: 3\n", ""), "capacity", "missing");
  require_refused(replace(kValid, "[[1, 0], [0, 1]]", "[[1, 0], [0]]"), "arrivals.modes[1].D[1]",
                  "row 1 has 1 entries");
}

TEST_CASE("syntax errors name the file and line", "[scenarios]") {
  try {
    parse_scenario("capacity: [1, 2\n", "bad.yaml");
    FAIL("accepted broken YAML");
  } catch (const ScenarioError& e) {
    CHECK(std::string(e.what()).find("bad.yaml: line") == 0);
  }
  CHECK_THROWS_WITH(load_scenario("/no/such/file.yaml"), Catch::Contains("/no/such/file.yaml"));
}

TEST_CASE("all five arrival kinds load", "[scenarios]") {
  const std::string tail = R"(
service: {beta: [1], S: [[-2]]}
)";
  CHECK(parse_scenario("capacity: 2\narrivals: {kind: independent, robots: [{D: [[[-1]], [[1]]]}, "
                       "{D: [[[-2]], [[2]]]}]}" +
                           tail,
                       "x")
            .model.modes() == 2);
  CHECK(parse_scenario("capacity: 2\narrivals: {kind: thinning, base: {D: [[[-1]], [[1]]]}, "
                       "accept: [0.5, 1]}" +
                           tail,
                       "x")
            .model.modes() == 2);
  CHECK(parse_scenario("capacity: 2\narrivals: {kind: marked, D0: [[-3]], robots: [{D: [[[1]]]}, "
                       "{D: [[[1]], [[1]]]}]}" +
                           tail,
                       "x")
            .model.modes() == 2);
  CHECK(parse_scenario("capacity: 2\narrivals: {kind: scaled, base: {D: [[[-1]], [[1]]]}, "
                       "factors: [1, 2, 3]}" +
                           tail,
                       "x")
            .model.modes() == 3);
  require_refused(
      "capacity: 2\narrivals: {kind: thinning, base: {D: [[[-1]], [[1]]]}, accept: [0.5, 0.9]}" +
          tail,
      "arrivals.accept[1]", "0.9");
  require_refused(
      "capacity: 2\narrivals: {kind: thinning, base: {D: [[[-1]], [[1]]]}, accept: [0.5, 0.4, 1]}" +
          tail,
      "arrivals.accept[1]", "0.4");
  require_refused(
      "capacity: 2\narrivals: {kind: scaled, base: {D: [[[-1]], [[1]]]}, factors: [1, 0]}" + tail,
      "arrivals.factors[1]", "0");
  require_refused(
      "capacity: 2\narrivals: {kind: marked, D0: [[-3]], robots: [{D: [[[-1]]]}]}" + tail,
      "arrivals.robots[0].D[0] row 0", "-1");
}

TEST_CASE("hysteresis and phase-aware policies load, and their rules are checked", "[scenarios]") {
  const auto h = parse_scenario(
      replace(kValid, "policy: {thresholds: [1]}",
              "policy: {hysteresis: {high: 2, low: 1, switch_off: 3, switch_on: 1}}"),
      "h.yaml");
  CHECK(h.model.level_map() == nullptr);
  REQUIRE(h.model.policy.has_value());
  CHECK(crawlq::model::policy_kind(*h.model.policy) == "hysteresis");
  CHECK(std::get<crawlq::model::HysteresisPolicy>(*h.model.policy).switch_on == 1);
  const auto p = parse_scenario(replace(kValid, "policy: {thresholds: [1]}",
                                        "policy: {phase-aware: [[2, 1], [2, 1], [1, 1], [1, 1]]}"),
                                "p.yaml");
  CHECK(crawlq::model::policy_kind(*p.model.policy) == "phase-aware");
  CHECK(std::get<crawlq::model::PhaseAwarePolicy>(*p.model.policy).robots[0][1] == 1);
  require_refused(replace(kValid, "policy: {thresholds: [1]}",
                          "policy: {hysteresis: {high: 2, low: 1, switch_off: 2, switch_on: 2}}"),
                  "policy.hysteresis.switch_on", "2");
  require_refused(replace(kValid, "policy: {thresholds: [1]}",
                          "policy: {hysteresis: {high: 3, low: 1, switch_off: 2, switch_on: 1}}"),
                  "policy.hysteresis.high", "3");
  require_refused(replace(kValid, "policy: {thresholds: [1]}",
                          "policy: {phase-aware: [[2, 1], [2, 1], [1, 1]]}"),
                  "policy.phase-aware", "3 rows");
  require_refused(replace(kValid, "policy: {thresholds: [1]}",
                          "policy: {phase-aware: [[2, 1], [2], [1, 1], [1, 1]]}"),
                  "policy.phase-aware[1]", "1 values");
  require_refused(replace(kValid, "policy: {thresholds: [1]}",
                          "policy: {thresholds: [1], levels: [1, 1, 1, 1]}"),
                  "policy", "exactly one");
}

TEST_CASE("a message stays one line with every byte visible, whatever the file holds",
          "[scenarios][messages]") {
  // yaml-cpp's own message quotes the byte it stumbled on: here a line break after FF 00.
  const std::string bytes("\xff\x00\n", 3);
  try {
    (void)crawlq::scenarios::parse_scenario(bytes, "odd.yaml");
    FAIL("three bytes of nothing were accepted");
  } catch (const crawlq::scenarios::ScenarioError& e) {
    const std::string message = e.what();
    CHECK(message.find('\n') == std::string::npos);
    CHECK(message.rfind("odd.yaml: ", 0) == 0);
  }
  CHECK(crawlq::scenarios::shortened(std::string("a\x01"
                                                 "b\tc\nd",
                                                 7)) == "a\\x01b c d");
}

TEST_CASE(
    "a long value is shortened between characters, and its bytes that are no UTF-8 shown in hex",
    "[scenarios][messages]") {
  using crawlq::model::valid_utf8;
  using crawlq::scenarios::shortened;
  // 56 ASCII characters, then two-byte ones: byte 57 and 58 are one character (é).
  const std::string accents = std::string(56, 'a') + "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9";
  const std::string cut = shortened(accents);
  CHECK(cut == std::string(56, 'a') + "\u00e9... (62 characters)");
  CHECK(valid_utf8(cut) == cut);
  for (std::size_t ascii = 50; ascii < 60; ++ascii) {
    const std::string text =
        std::string(ascii, 'x') + "\u2212\u2212\u2212\u2212\u2212\u2212\u2212\u2212\u2212\u2212";
    INFO(ascii << " ASCII characters first");
    CHECK(valid_utf8(shortened(text)) == shortened(text));
  }
  CHECK(shortened("\u00e9t\u00e9") == "\u00e9t\u00e9");  // short: whole
  CHECK(shortened(std::string("caf\xe9", 4)) == "caf\\xe9");
  // A file whose value is Latin-1: the message quotes it in valid UTF-8.
  try {
    (void)crawlq::scenarios::parse_scenario(std::string("name: x\ncapacity: caf\xe9\n"),
                                            "latin1.yaml");
    FAIL("a capacity of text was accepted");
  } catch (const crawlq::scenarios::ScenarioError& e) {
    CHECK(valid_utf8(e.what()) == e.what());
  }
}
