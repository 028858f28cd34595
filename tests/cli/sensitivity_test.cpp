// solve --sensitivity: the keys of interface.md, every parameter group of the model with every
// scalar measure, the elasticity as derivative x parameter / measure, and a readable table. The
// numbers themselves are checked against the brute force (tests/crosscheck).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"
#include "tests/cli/process.hpp"

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

TEST_CASE("solve --sensitivity-rates --json: every rate and start entry with every measure",
          "[cli][sensitivity]") {
  const ProcessResult run = crawlq({"solve", shipped("paper-example-1.yaml"), "--thresholds",
                                    "-1,2,2", "--sensitivity-rates", "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json j = json_of(run);
  std::map<std::string, int> measures_by_parameter;
  // Values read off paper-example-1.yaml by hand: a rate of D_1 of mode 1, of D_0 of mode 3, the
  // service's exits (-S e = (2, 1)), a rate of Gamma and the entries of gamma.
  const std::map<std::string, double> values{{"arrivals.modes[0].D[1][0][1]", 3},
                                             {"arrivals.modes[2].D[0][1][0]", 0.48},
                                             {"service.exit[0]", 2},
                                             {"service.exit[1]", 1},
                                             {"service.S[1][0]", 2},
                                             {"obsolescence.Gamma[0][1]", 0.4},
                                             {"obsolescence.gamma[1]", 0.7}};
  int checked = 0;
  for (const json& row : j.at("sensitivity")) {
    const std::string parameter = row.at("parameter");
    ++measures_by_parameter[parameter];
    CHECK(std::isfinite(row.at("derivative").get<double>()));
    const auto value = values.find(parameter);
    if (value == values.end() || row.at("elasticity").is_null()) continue;
    CHECK(row.at("elasticity").get<double>() ==
          Approx(row.at("derivative").get<double>() * value->second /
                 j.at(row.at("measure").get<std::string>()).get<double>())
              .epsilon(1e-12));
    ++checked;
  }
  CHECK(checked == 7 * 12);
  // The file's nonzero rates: D (D_0's diagonal aside) 9 + 11 + 6 + 6 by mode; S 2 and its exits
  // 2, beta 2; Gamma 2, its exits 2, gamma 2. No group rows without --sensitivity.
  CHECK(measures_by_parameter.size() == 32 + 6 + 6);
  for (const auto& [parameter, count] : measures_by_parameter) {
    INFO(parameter);
    CHECK(count == 12);
    CHECK_FALSE(parameter.ends_with("-scale"));
  }
  CHECK(j.at("seconds_sensitivity").get<double>() >= 0);
}

TEST_CASE("solve --sensitivity-rates: the same numbers on one thread and on three",
          "[cli][sensitivity]") {
  // K = 9: 2,046 states, past the adjoint's dense factorisation (its BiCGSTAB).
  const TempDirectory dir;
  const std::string file = dir.write(
      "k9.yaml",
      replace_once(read_text(shipped("paper-example-1.yaml")), "capacity: 5", "capacity: 9"));
  const auto rows = [&](const char* threads) {
    const ProcessResult run = crawlq({"solve", file, "--thresholds", "-1,2,2",
                                      "--sensitivity-rates", "--json", "--threads", threads});
    INFO(report(run));
    REQUIRE(run.exit_status == 0);
    return json_of(run).at("sensitivity");
  };
  CHECK(rows("1") == rows("3"));
}

TEST_CASE("solve --sensitivity-rates refuses a full-state table, naming the flag",
          "[cli][sensitivity]") {
  const TempDirectory dir;
  const std::string table = (dir.path() / "best.csv").string();
  REQUIRE(crawlq({"optimize", shipped("teaching-two-robots.yaml"), "--class", "markov",
                  "--export-policy", table})
              .exit_status == 0);
  const ProcessResult run = crawlq(
      {"solve", shipped("teaching-two-robots.yaml"), "--policy", table, "--sensitivity-rates"});
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK_THAT(run.err, Catch::Contains("--sensitivity-rates") && Catch::Contains("table"));
  CHECK(run.out.empty());
}

// Under an address-space limit (as memory_limit_test.cpp): the stationary solve fits in it, the
// adjoint's assembled generator would not.
TEST_CASE("solve --sensitivity-rates refuses a chain whose generator would not fit, at once",
          "[cli][sensitivity][hardening]") {
  if (CRAWLQ_SANITIZED) {
    WARN("not under the sanitizers (their shadow memory takes terabytes of address space)");
    return;
  }
  const TempDirectory dir;
  const std::string large = dir.write(
      "large.yaml",
      replace_once(read_text(shipped("paper-example-1.yaml")), "capacity: 5", "capacity: 18"));
  const ProcessResult run =
      run_process({CRAWLQ_BINARY, "solve", large, "--thresholds", "-1,2,2", "--sensitivity-rates"},
                  std::chrono::seconds(120), std::size_t{3} << 29);
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK_THAT(run.err, Catch::Contains("--sensitivity-rates") &&
                          Catch::Contains("the adjoint solves with their generator need") &&
                          Catch::Contains("the largest capacity that fits is"));
  CHECK(run.out.empty());
}

}  // namespace
}  // namespace crawlq::cli_test
