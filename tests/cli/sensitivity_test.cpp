// solve --sensitivity: the keys of interface.md, every parameter group of the model with every
// scalar measure, the elasticity as derivative x parameter / measure, and a readable table. The
// numbers themselves are checked against the brute force (tests/crosscheck).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

TEST_CASE("solve --sensitivity --json: every group with every measure", "[cli][sensitivity]") {
  const ProcessResult run = crawlq({"solve", shipped("paper-example-1.yaml"), "--thresholds",
                                    "-1,2,2", "--sensitivity", "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json j = json_of(run);
  const json& rows = j.at("sensitivity");
  std::set<std::string> parameters, measures;
  for (const json& row : rows) {
    parameters.insert(row.at("parameter").get<std::string>());
    measures.insert(row.at("measure").get<std::string>());
    const double derivative = row.at("derivative");
    // A scalar's key, or an entry of a vector: "level_probabilities[2]".
    const std::string key = row.at("measure");
    const std::size_t open = key.find('[');
    const double measure =
        open == std::string::npos
            ? j.at(key).get<double>()
            : j.at(key.substr(0, open)).at(std::stoul(key.substr(open + 1))).get<double>();
    CHECK(std::isfinite(derivative));
    if (measure == 0) {
      CHECK(row.at("elasticity").is_null());
    } else if (!row.at("parameter").get<std::string>().starts_with("costs.")) {
      // A scale is 1 at the model as given; capacity is paper-example-1's K = 5.
      const double parameter = row.at("parameter") == "capacity" ? 5 : 1;
      CHECK(row.at("elasticity").get<double>() ==
            Approx(derivative * parameter / measure).epsilon(1e-12));
    }
  }
  const std::set<std::string> expected{
      "arrival-scale",      "arrival-scale:1", "arrival-scale:2",    "arrival-scale:3",
      "arrival-scale:4",    "service-scale",   "obsolescence-scale", "costs.loss",
      "costs.obsolescence", "costs.sojourn",   "costs.robot",        "costs.starvation",
      "costs.holding",      "capacity"};
  CHECK(parameters == expected);
  // 12 scalars, and for each of the 7 scales the 6 levels' and 4 modes' probabilities too.
  CHECK(measures.size() == 12 + 6 + 4);
  CHECK(rows.size() == 7 * (12 + 6 + 4) + (1 + 6) * 12);
  CHECK(j.at("seconds_sensitivity").get<double>() >= 0);
  // Without the flag, no key.
  CHECK_FALSE(json_of(crawlq({"solve", shipped("paper-example-1.yaml"), "--thresholds", "-1,2,2",
                              "--json"}))
                  .contains("sensitivity"));
}

TEST_CASE("solve --sensitivity: the elasticities, largest first", "[cli][sensitivity]") {
  const ProcessResult run = crawlq({"solve", shipped("teaching-two-robots.yaml"), "--sensitivity"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.out, Catch::Contains("percent change of each measure per percent change"));
  const auto lines = lines_of(run.out);
  auto header = std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
    return line.find("parameter") != std::string::npos &&
           line.find("elasticity") != std::string::npos;
  });
  REQUIRE(header != lines.end());
  double previous = INFINITY;
  int rows = 0;
  for (auto line = header + 1;
       line != lines.end() && line->starts_with("  ") && !line->starts_with("  ..."); ++line) {
    std::istringstream fields(*line);
    std::string parameter, word, elasticity_text;
    fields >> parameter;
    std::vector<std::string> rest;
    while (fields >> word) rest.push_back(word);
    REQUIRE(rest.size() >= 3);
    const double elasticity = std::abs(std::stod(rest[rest.size() - 2]));
    CHECK(elasticity <= previous + 1e-12);
    previous = elasticity;
    ++rows;
  }
  CHECK(rows >= 10);
}

}  // namespace
}  // namespace crawlq::cli_test
