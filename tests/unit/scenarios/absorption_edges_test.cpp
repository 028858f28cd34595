// The absorption rule on scenario files, just inside and just outside it, for each law it governs:
// the service time (beta, S) and the obsolescence clock (gamma, Gamma). A closed class {0, 1}
// beside an exiting phase 2 is refused naming the key; the same file with 1e-9 leading out of the
// class is accepted. The arrivals' D0 has the rule's counterpart: D(1) = D0 + D1 + ... has one
// closed class, so phases 0 and 1 closed beside phase 2 are refused there too, and 1e-9 from 0 to 2
// makes them transient (accepted).
#include <catch2/catch.hpp>
#include <string>

#include "scenarios/scenario_loader.hpp"

using crawlq::scenarios::parse_scenario;
using crawlq::scenarios::ScenarioError;

namespace {

const std::string kClosed = "[[-1, 1, 0], [1, -1, 0], [0, 0, -2]]";
const std::string kJustOpen = "[[-1.000000001, 1, 1e-9], [1, -1, 0], [0, 0, -2]]";
const std::string kOnTheClass = "[0.5, 0.25, 0.25]";

std::string with_laws(const std::string& service, const std::string& clock) {
  return "name: edges\ncapacity: 3\narrivals: {kind: poisson, modes: [{rate: 1}, {rate: 2}]}\n"
         "service: " +
         service + "\nobsolescence: " + clock +
         "\ncosts: {loss: 1, robot: 2}\npolicy: {thresholds: [1]}\n";
}

const std::string kPlainService = "{beta: [0.4, 0.6], S: [[-3, 1], [2, -3]]}";
const std::string kPlainClock = "{gamma: [1], Gamma: [[-0.5]]}";

// One mode with the given D0 over three phases; its batches come from phase 2 and, with
// `class_batches`, from phase 0 too.
std::string with_d0(const std::string& d0, bool class_batches) {
  const std::string d1 =
      class_batches ? "[[0.5, 0, 0], [0, 0, 0], [0, 0, 2]]" : "[[0, 0, 0], [0, 0, 0], [0, 0, 2]]";
  return "name: edges\ncapacity: 3\narrivals: {kind: per-mode, modes: [{D: [" + d0 + ", " + d1 +
         "]}]}\n"
         "service: " +
         kPlainService + "\nobsolescence: " + kPlainClock + "\ncosts: {loss: 1}\n";
}

void require_refused(const std::string& text, const std::string& key) {
  INFO(text);
  try {
    parse_scenario(text, "closed.yaml");
    FAIL("accepted a law whose phases 0 and 1 never reach absorption");
  } catch (const ScenarioError& e) {
    const std::string message = e.what();
    INFO(message);
    CHECK(message.find(key) != std::string::npos);
    CHECK(message.find("never reaches absorption") != std::string::npos);
  }
}

}  // namespace

TEST_CASE("service: a closed class of phases is refused, one rate out of it accepted",
          "[scenarios][edges]") {
  REQUIRE_NOTHROW(parse_scenario(with_laws(kPlainService, kPlainClock), "plain.yaml"));
  require_refused(with_laws("{beta: " + kOnTheClass + ", S: " + kClosed + "}", kPlainClock),
                  "service.S");
  const auto open = parse_scenario(
      with_laws("{beta: " + kOnTheClass + ", S: " + kJustOpen + "}", kPlainClock), "open.yaml");
  CHECK(open.model.service.phases() == 3);
}

TEST_CASE("obsolescence: a closed class of clock phases is refused, one rate out of it accepted",
          "[scenarios][edges]") {
  require_refused(with_laws(kPlainService, "{gamma: " + kOnTheClass + ", Gamma: " + kClosed + "}"),
                  "obsolescence.Gamma");
  const auto open = parse_scenario(
      with_laws(kPlainService, "{gamma: " + kOnTheClass + ", Gamma: " + kJustOpen + "}"),
      "open.yaml");
  REQUIRE(open.model.obsolescence);
  CHECK(open.model.obsolescence->phases() == 3);
}

TEST_CASE(
    "arrivals: phases of D0 closed beside the batches' phase are refused, one rate out accepted",
    "[scenarios][edges]") {
  const std::string closed = "[[-1, 1, 0], [1, -1, 0], [0, 0, -2]]";
  for (const bool class_batches : {false, true}) {
    // Phase 0's own batches (0.5) come out of its diagonal.
    const std::string d0 = class_batches ? "[[-1.5, 1, 0], [1, -1, 0], [0, 0, -2]]" : closed;
    INFO("batches from the class: " << class_batches);
    try {
      parse_scenario(with_d0(d0, class_batches), "closed.yaml");
      FAIL("accepted a phase process with two closed classes");
    } catch (const ScenarioError& e) {
      const std::string message = e.what();
      INFO(message);
      CHECK(message.find("arrivals.modes[0]") != std::string::npos);
      CHECK(message.find("more than one closed class") != std::string::npos);
    }
  }
  const auto open = parse_scenario(
      with_d0("[[-1.000000001, 1, 1e-9], [1, -1, 0], [0, 0, -2]]", false), "open.yaml");
  CHECK(open.model.arrivals.phases() == 3);
}
