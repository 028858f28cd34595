// One bad-input type: a scenario file's errors, an output file's and the model's own rules are all
// model::InputError, so one catch maps them to exit status 2; a file's errors print without the
// "crawlq: " prefix since they start with the file's name.
#include <catch2/catch.hpp>
#include <limits>

#include "output/output_file.hpp"
#include "scenarios/scenario_loader.hpp"
#include "validation/engine_comparison.hpp"

namespace crawlq {

TEST_CASE("every kind of bad input is a model::InputError", "[validation][errors]") {
  try {
    (void)scenarios::parse_scenario("capacity: 0\n", "bad.yaml");
    FAIL("a capacity of 0 was accepted");
  } catch (const model::InputError& e) {
    CHECK(e.shown() == std::string(e.what()));
    CHECK_THAT(e.shown(), Catch::StartsWith("bad.yaml: capacity"));
  }
  try {
    output::OutputFile file("/nonexistent-directory/out.csv",
                            "--csv /nonexistent-directory/out.csv");
    file.stream() << "x";
    file.commit();
    FAIL("a file in a missing directory was written");
  } catch (const model::InputError& e) {
    CHECK_THAT(e.shown(), Catch::StartsWith("crawlq: --csv /nonexistent-directory/out.csv"));
  }
  const model::InputError rule("policy.thresholds[0]", "9 outside -1..5");
  CHECK(rule.key_path() == "policy.thresholds[0]");
  CHECK(rule.shown() == "crawlq: policy.thresholds[0]: 9 outside -1..5");
}

}  // namespace crawlq
