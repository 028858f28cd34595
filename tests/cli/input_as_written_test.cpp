// Input as people write it: laws by name give the bytes of their written-out forms, short decimals
// are accepted by every command, and flags read numbers the way scenario files do.
#include <catch2/catch.hpp>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

// teaching-two-robots.yaml as it was written before its laws had names.
const char* const kTwoRobotsWrittenOut = R"(name: teaching-two-robots
capacity: 4
admission: partial
arrivals:
  kind: independent
  robots:
    - D: [[[-1]], [[1]]]
    - D: [[[-1]], [[0.5]], [[0.5]]]
service: {beta: [1], S: [[-2]]}
obsolescence: {gamma: [1], Gamma: [[-0.2]]}
costs: {loss: 5, obsolescence: 10, sojourn: 2, robot: 3, starvation: 20}
policy:
  thresholds: [1]
)";

// Every law by name at once, and its written-out twin.
const char* const kNamed = R"(name: named
capacity: 3
arrivals: {kind: poisson, modes: [{rate: 0.8, batch: [0.5, 0.3, 0.2]}, {rate: 2.5, batch: [0.6, 0.4]}]}
service: {erlang: {phases: 2, mean: 0.5}}
obsolescence: {hyperexponential: {probabilities: [0.3, 0.7], rates: [0.5, 4]}}
costs: {loss: 5, obsolescence: 10, sojourn: 2, robot: 3, starvation: 20}
policy: {levels: [2, 2, 1, 1]}
)";
const char* const kNamedWrittenOut = R"(name: named
capacity: 3
arrivals:
  kind: per-mode
  modes:
    - D: [[[-0.8]], [[0.4]], [[0.24]], [[0.16000000000000003]]]
    - D: [[[-2.5]], [[1.5]], [[1.0]]]
service: {beta: [1, 0], S: [[-4, 4], [0, -4]]}
obsolescence: {gamma: [0.3, 0.7], Gamma: [[-0.5, 0], [0, -4]]}
costs: {loss: 5, obsolescence: 10, sojourn: 2, robot: 3, starvation: 20}
policy: {levels: [2, 2, 1, 1]}
)";

// The issue's file: one-decimal rates whose rows cancel on paper but not in binary.
const char* const kDecimals = R"(name: decimals
capacity: 3
arrivals:
  kind: per-mode
  modes:
    - D: [[[-0.6]], [[0.3]], [[0.3]]]
    - D: [[[-0.9]], [[0.6]], [[0.3]]]
service: {beta: [0.1, 0.2, 0.7], S: [[-0.9, 0.6, 0.3], [0.1, -0.3, 0.1], [0, 0, -1.1]]}
obsolescence: {gamma: [0.3, 0.7], Gamma: [[-0.7, 0.4], [0.1, -0.3]]}
costs: {loss: 0.5, obsolescence: 1.5, sojourn: 0.2, robot: 0.3, starvation: 2.5}
policy: {thresholds: [1]}
)";

// stdout without the wall time, the one line allowed to differ between two runs.
json without_seconds(const ProcessResult& run) {
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  return without_timing(json_of(run));
}

TEST_CASE("a law by name solves and simulates to the last digit of its written-out form",
          "[cli][named-laws]") {
  TempDirectory dir;
  const std::vector<std::pair<std::string, std::string>> pairs{
      {shipped("teaching-two-robots.yaml"),
       dir.write("two-robots-written.yaml", kTwoRobotsWrittenOut)},
      {dir.write("named.yaml", kNamed), dir.write("named-written.yaml", kNamedWrittenOut)}};
  for (const auto& [named, written] : pairs) {
    INFO(named << " against " << written);
    CHECK(without_seconds(crawlq({"solve", named, "--json", "--sojourn"})) ==
          without_seconds(crawlq({"solve", written, "--json", "--sojourn"})));
    const std::vector<std::string> simulate{"--json", "--seed",    "5",   "--replications",
                                            "4",      "--horizon", "3000"};
    std::vector<std::string> a{"simulate", named}, b{"simulate", written};
    a.insert(a.end(), simulate.begin(), simulate.end());
    b.insert(b.end(), simulate.begin(), simulate.end());
    CHECK(without_seconds(crawlq(a)) == without_seconds(crawlq(b)));
    CHECK(without_seconds(crawlq({"optimize", named, "--json"})) ==
          without_seconds(crawlq({"optimize", written, "--json"})));
  }
}

TEST_CASE("describe shows the matrices a law by name stands for", "[cli][describe][named-laws]") {
  const std::string file = shipped("teaching-two-robots.yaml");
  const json j = json_of(crawlq({"describe", file, "--json"}));
  INFO(j.dump());
  // Two independent Poisson robots: mode 2 is the Kronecker sum of {rate: 1} and {rate: 1, batch:
  // [0.5, 0.5]}.
  CHECK(j.at("modes").at(0).at("D") ==
        json::parse("[[[-1.0]], [[1.0]], [[0.0]]]"));  // batches of 2 need robot 2
  CHECK(j.at("modes").at(1).at("D") == json::parse("[[[-2.0]], [[1.5]], [[0.5]]]"));
  CHECK(j.at("service").at("beta") == json::parse("[1.0]"));
  CHECK(j.at("service").at("S") == json::parse("[[-2.0]]"));
  CHECK(j.at("obsolescence").at("Gamma") == json::parse("[[-0.2]]"));
  const ProcessResult text = crawlq({"describe", file});
  INFO(report(text));
  CHECK_THAT(text.out, Catch::Contains("D2 = [[0.5]]") && Catch::Contains("S = [[-2]]") &&
                           Catch::Contains("Gamma = [[-0.2]]"));
}

TEST_CASE("a file with one-decimal rates is accepted by every command", "[cli][decimals]") {
  TempDirectory dir;
  const std::string file = dir.write("decimals.yaml", kDecimals);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"describe", file, "--json"},
        {"solve", file, "--json"},
        {"optimize", file, "--json"},
        {"simulate", file, "--json", "--replications", "3", "--horizon", "500"},
        {"validate", file, "--json"},
        {"sweep", file, "--param", "costs.loss", "--values", "0.1,0.2", "--json"}}) {
    const ProcessResult run = crawlq(args, std::chrono::seconds(60));
    INFO(report(run));
    CHECK(run.exit_status < 2);
    CHECK(run.err.find("sum") == std::string::npos);
  }
  CHECK(crawlq({"solve", file, "--json"}).exit_status == 0);
}

TEST_CASE("flags read lists and numbers as scenario files do", "[cli][flags]") {
  const std::string file = shipped("paper-example-1.yaml");
  const json levels =
      without_seconds(crawlq({"solve", file, "--levels", "3,3,3,1,1,1", "--json", "--cdf", "1,2"}));
  for (const char* written :
       {"[3, 3, 3, 1, 1, 1]", "3 3 3 1 1 1", " 3, 3,3 ,1, 1, 1 ", "3.0,3,3,1,1,1e0"}) {
    INFO(written);
    CHECK(without_seconds(
              crawlq({"solve", file, "--levels", written, "--json", "--cdf", " 1, 2 "})) == levels);
  }
  CHECK(without_seconds(crawlq(
            {"solve", file, "--thresholds", "[-1, 2, 2]", "--json", "--cdf", "[1,2]"})) == levels);

  // Whole numbers with a point or an exponent, for options typed as integers too.
  const json plain =
      without_seconds(crawlq({"simulate", file, "--json", "--seed", "1000", "--replications", "4",
                              "--horizon", "2000", "--threads", "1"}));
  const json written =
      without_seconds(crawlq({"simulate", file, "--json", "--seed", "1e3", "--replications", "4.0",
                              "--horizon", "2e3", "--threads", "1.0"}));
  CHECK(written == plain);
  CHECK(crawlq({"optimize", file, "--json", "--threads", "2.0"}).exit_status == 0);

  check_refused(crawlq({"simulate", file, "--replications", "2.5"}), {"--replications", "2.5"});
  check_refused(crawlq({"simulate", file, "--seed", "1.5"}), {"--seed", "1.5"});
  check_refused(crawlq({"solve", file, "--levels", "3,,3,1,1,1"}), {"--levels", "''"});
  check_refused(crawlq({"solve", file, "--levels", "3;3;3;1;1;1"}), {"--levels", "'3;3;3;1;1;1'"});
}

}  // namespace
}  // namespace crawlq::cli_test
