// The state distribution a transient starts from, as `solve --export` writes it: read back with the
// chain's dimensions taken from its state columns, and every broken rule refused naming the file
// and line.
#include "scenarios/state_distribution.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "model/input_error.hpp"

using crawlq::scenarios::parse_state_distribution;

namespace {

std::string refusal(const std::string& text) {
  try {
    parse_state_distribution(text, "start.csv");
  } catch (const crawlq::model::InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("state distribution: the columns of solve --export give the probabilities and dimensions",
          "[scenarios]") {
  const auto d = parse_state_distribution(
      "level,arrival_phase,service_phase,clock_1,clock_2,probability\n"
      "0,0,,,,0.1\n0,2,,,,0.2\n1,1,1,,,0.3\n3,0,0,2,1,0.4\n",
      "start.csv");
  CHECK(d.probability == std::vector<double>{0.1, 0.2, 0.3, 0.4});
  CHECK(d.capacity == 3);
  CHECK(d.arrival_phases == 3);
  CHECK(d.service_phases == 2);
  CHECK(d.clock_phases == 3);
}

TEST_CASE("state distribution: broken files are refused naming the file, the line and the value",
          "[scenarios]") {
  CHECK(refusal("") == "start.csv: no states: give the file solve --export writes");
  CHECK_THAT(refusal("robots\n1\n"), Catch::Matchers::StartsWith("start.csv line 1: the header "));
  CHECK(refusal("level,probability\n0,0.5,1\n") == "start.csv line 2: 3 fields, the header has 2");
  CHECK(refusal("level,probability\n0,x\n") ==
        "start.csv line 2: probability 'x': give a number from 0 to 1");
  CHECK(refusal("level,probability\n0,-0.5\n1,1.5\n") ==
        "start.csv line 2: probability '-0.5': give a number from 0 to 1");
  CHECK(refusal("level,probability\n-1,1\n") ==
        "start.csv line 2: level '-1': not a whole number of 0 or more");
  CHECK(refusal("level,probability\n0,0.5\n1,0.4\n") ==
        "start.csv: the probabilities sum to 0.9, not 1");
}
