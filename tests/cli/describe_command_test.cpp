// `crawlq describe`: the model in numbers, as JSON and as a table; repairs go to stderr only.
#include <catch2/catch.hpp>
#include <sstream>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

json describe_json(const std::string& file, ProcessResult* run_out = nullptr) {
  const ProcessResult run = crawlq({"describe", file, "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  if (run_out) *run_out = run;
  return json_of(run);
}

TEST_CASE("describe --json on every shipped scenario: the model's keys", "[cli][describe]") {
  const std::string name = GENERATE(from_range(kShippedScenarios));
  const std::string file = shipped(name);
  INFO(file);
  const json j = describe_json(file);
  INFO(j.dump());
  for (const char* key :
       {"name", "capacity", "modes", "service", "obsolescence", "states", "repairs"}) {
    INFO("key " << key);
    REQUIRE(j.contains(key));
  }
  CHECK(j.at("name").get<std::string>() + ".yaml" == name);
  CHECK(j.at("capacity").get<int>() == read_capacity(file));
  REQUIRE(j.at("modes").is_array());
  REQUIRE_FALSE(j.at("modes").empty());
  for (const auto& mode : j.at("modes")) {
    INFO(mode.dump());
    for (const char* key :
         {"fundamental_rate", "group_rate", "group_interval_variance", "lag1_correlation"}) {
      INFO("key " << key);
      REQUIRE(mode.contains(key));
      REQUIRE(mode.at(key).is_number());
    }
    // Batches bring at least one page each; a correlation lies in [-1, 1].
    CHECK(mode.at("group_rate").get<double>() > 0);
    CHECK(mode.at("fundamental_rate").get<double>() >=
          mode.at("group_rate").get<double>() * (1 - 1e-12));
    CHECK(mode.at("group_interval_variance").get<double>() > 0);
    CHECK(std::abs(mode.at("lag1_correlation").get<double>()) <= 1.0);
  }
  CHECK(j.at("states").get<int>() > 0);
  REQUIRE(j.at("repairs").is_array());
}

TEST_CASE("describe --json: a mode's fundamental rate is the lambda of that constant policy",
          "[cli][describe]") {
  const std::string file =
      GENERATE(shipped("paper-example-1.yaml"), shipped("teaching-two-robots.yaml"));
  INFO(file);
  const json d = describe_json(file);
  const int capacity = read_capacity(file);
  const int n = static_cast<int>(d.at("modes").size());
  for (int r = 1; r <= n; ++r) {
    const ProcessResult run = crawlq(
        {"solve", file, "--levels", comma_list(std::vector<int>(capacity + 1, r)), "--json"});
    INFO(report(run));
    REQUIRE(run.exit_status == 0);
    const json s = json_of(run);
    CHECK(s.at("lambda").get<double>() ==
          Approx(d.at("modes")[r - 1].at("fundamental_rate").get<double>()).epsilon(1e-9));
    CHECK(s.at("states") == d.at("states"));
  }
}

TEST_CASE("describe --json: paper-example-1's numbers checkable by hand", "[cli][describe]") {
  const json j = describe_json(shipped("paper-example-1.yaml"));
  CHECK(j.at("capacity") == 5);
  CHECK(j.at("modes").size() == 4u);
  CHECK(j.at("states") == 126);
  CHECK(j.at("repairs").empty());
  // Mode 3: D(1) has the uniform stationary vector, so lambda = (1.5 + 0.5*2 + 2.25 + 0.75*2) / 2.
  CHECK(j.at("modes")[2].at("fundamental_rate").get<double>() == Approx(3.125).epsilon(1e-12));
  CHECK(j.at("modes")[2].at("group_rate").get<double>() == Approx(2.5).epsilon(1e-12));
  // Service PH(beta, S): mean beta (-S)^-1 1 = 23/35.
  CHECK(j.at("service").at("mean").get<double>() == Approx(23.0 / 35).epsilon(1e-12));
}

TEST_CASE("describe without --json: the readable output mentions each mode",
          "[cli][describe][readable]") {
  const std::string name = GENERATE(from_range(kShippedScenarios));
  const std::string file = shipped(name);
  const json j = describe_json(file);
  const ProcessResult run = crawlq({"describe", file});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_FALSE(json::accept(run.out));
  CHECK_THAT(run.out, Catch::Contains(j.at("name").get<std::string>()));
  CHECK_THAT(run.out, Catch::Contains("service") && Catch::Contains("obsolescence"));
  const auto lines = lines_of(run.out);
  for (std::size_t r = 1; r <= j.at("modes").size(); ++r) {
    INFO("mode " << r);
    // One table row per mode: the number of robots, then its rates.
    CHECK(std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
      std::istringstream words(l);
      std::size_t robots = 0;
      double rate = 0;
      return static_cast<bool>(words >> robots >> rate) && robots == r;
    }));
  }
}

TEST_CASE("describe: paper-real-data reports its repairs on stderr, stdout stays clean JSON",
          "[cli][describe]") {
  const std::string file = shipped("paper-real-data.yaml");
  ProcessResult run;
  const json j = describe_json(file, &run);
  REQUIRE(j.at("repairs").is_array());
  CHECK(j.at("repairs").size() == 2u);  // both diagonal entries of the printed D_0
  CHECK_THAT(run.err, Catch::Contains("paper-real-data.yaml") && Catch::Contains("repaired") &&
                          Catch::Contains("-0.0038") && Catch::Contains("-0.0066"));
  for (const auto& repair : j.at("repairs"))
    CHECK_THAT(run.err, Catch::Contains(repair.get<std::string>()));
  // The printed lambda^(r) = 0.0153 r (section 7).
  for (std::size_t r = 1; r <= 4; ++r)
    CHECK(j.at("modes")[r - 1].at("fundamental_rate").get<double>() ==
          Approx(0.0153 * r).epsilon(0.01));
  // solve and optimize keep stdout clean too.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"solve", file, "--json"},
        std::vector<std::string>{"optimize", file, "--json"}}) {
    const ProcessResult other = crawlq(args);
    INFO(report(other));
    REQUIRE(other.exit_status == 0);
    CHECK(json::accept(other.out));
    CHECK_THAT(other.err, Catch::Contains("repaired"));
  }
}

// paper-example-1 with a larger buffer: (K - 1) waiting pages each carry a clock of 2 phases, so
// the state count 2 + 4 (2^K - 1) passes 2^63 at K = 62.
std::string with_capacity(const TempDirectory& dir, int capacity) {
  return dir.write("capacity-" + std::to_string(capacity) + ".yaml",
                   replace_once(read_text(shipped("paper-example-1.yaml")), "capacity: 5",
                                "capacity: " + std::to_string(capacity)));
}

TEST_CASE("describe: the state count of a large buffer is right or the file is refused",
          "[cli][describe]") {
  TempDirectory dir;
  const int capacity = GENERATE(62, 64, 100);
  const std::string file = with_capacity(dir, capacity);
  const ProcessResult run = crawlq({"describe", file, "--json"});
  INFO(report(run));
  REQUIRE_FALSE(run.signaled);
  REQUIRE((run.exit_status == 0 || run.exit_status == 2));
  if (run.exit_status == 2) {
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains("capacity"));
  } else {
    const nlohmann::json j = json_of(run);
    // No wrap-around: at least 2^62 states, whatever the number type.
    CHECK(j.at("states").get<double>() >= 4.6e18);
  }
}

TEST_CASE("describe: a huge capacity answers within seconds", "[cli][describe]") {
  TempDirectory dir;
  const std::string file = with_capacity(dir, 1'000'000);
  const ProcessResult run = crawlq({"describe", file, "--json"}, std::chrono::seconds(5));
  INFO(report(run));
  CHECK_FALSE(run.timed_out);
  CHECK((run.exit_status == 0 || run.exit_status == 2));
}

TEST_CASE("solve and optimize refuse a chain too large for the exact engine, naming the capacity",
          "[cli][describe]") {
  TempDirectory dir;
  const std::string file = with_capacity(dir, 64);
  // The full chain: lumped, the paper's clock leaves 258 states (clock_lumping_request_test).
  for (const std::vector<std::string>& words :
       {std::vector<std::string>{"solve", file, "--json", "--full-chain"},
        std::vector<std::string>{"optimize", file, "--json", "--full-chain"}}) {
    const ProcessResult run = crawlq(words);
    INFO(report(run));
    CHECK(run.exit_status == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains("capacity-64.yaml") && Catch::Contains("capacity"));
  }
}

}  // namespace
}  // namespace crawlq::cli_test

TEST_CASE("describe: a count of one reads in the singular", "[cli][describe]") {
  const crawlq::cli_test::ProcessResult run =
      crawlq::cli_test::crawlq({"describe", crawlq::cli_test::shipped("teaching-two-robots.yaml")});
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.out, Catch::Matchers::Contains("2 modes, 1 arrival phase, 5 states"));
  CHECK_THAT(run.out, Catch::Matchers::Contains("service       1 phase, mean 0.5"));
  CHECK_THAT(run.out, !Catch::Matchers::Contains("1 phases"));
}

TEST_CASE("describe: each mode's offered load, lambda times the mean service time",
          "[cli][describe]") {
  using crawlq::cli_test::ProcessResult;
  const ProcessResult run = crawlq::cli_test::crawlq(
      {"describe", crawlq::cli_test::shipped("paper-example-1.yaml"), "--json"});
  REQUIRE(run.exit_status == 0);
  const nlohmann::json j = crawlq::cli_test::json_of(run);
  const double service_mean = j.at("service").at("mean").get<double>();
  for (const auto& mode : j.at("modes"))
    CHECK_THAT(mode.at("offered_load").get<double>(),
               Catch::Matchers::WithinRel(mode.at("fundamental_rate").get<double>() * service_mean,
                                          1e-12));
  // The first example's busiest mode offers about three pages per page the indexer can serve.
  CHECK_THAT(j.at("modes")[3].at("offered_load").get<double>(),
             Catch::Matchers::WithinAbs(4.642857 * 0.657143, 1e-4));
  const ProcessResult text =
      crawlq::cli_test::crawlq({"describe", crawlq::cli_test::shipped("paper-example-1.yaml")});
  CHECK_THAT(text.out, Catch::Matchers::Contains("load rho") &&
                           Catch::Matchers::Contains("serves at most 1.522 pages per unit time"));
}
