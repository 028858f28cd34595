// A scenario's `time_unit`: every table prints its times and rates with it, the JSON carries it,
// and a scenario without one speaks of time units. The numbers never change with it.
#include <catch2/catch.hpp>
#include <string>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

// teaching-two-robots with `line` added after its name.
std::string with_line(const TempDirectory& dir, const std::string& line) {
  const std::string text = read_text(shipped("teaching-two-robots.yaml"));
  const std::string marker = "name: teaching-two-robots\n";
  const auto at = text.find(marker);
  REQUIRE(at != std::string::npos);
  std::string changed = text;
  changed.insert(at + marker.size(), line + "\n");
  return dir.write("unit.yaml", changed);
}

TEST_CASE("time_unit: solve prints rates per the unit and times in it", "[cli][time-unit]") {
  TempDirectory dir;
  const std::string file = with_line(dir, "time_unit: Minutes");
  const ProcessResult run = crawlq({"solve", file, "--sojourn", "--times", "1,2"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  for (const char* text : {"lambda          1.73522  pages per minute",
                           "V(1)           0.967424  minutes", "sojourn times in minutes",
                           "t in minutes, the loss rate in pages per minute", "by t = 2 minutes"}) {
    INFO(text);
    CHECK_THAT(run.out, Catch::Contains(text));
  }
  CHECK_THAT(run.out, !Catch::Contains("time unit"));
  const json solved = json_of(crawlq({"solve", file, "--json"}));
  CHECK(solved.at("time_unit") == "minute");
  // The words the tables use, for readers (the lab) with no plural rules of their own.
  const json described = json_of(crawlq({"describe", file, "--json"}));
  CHECK(described.at("time_units") == "minutes");
  CHECK(described.at("per_time_unit") == "per minute");
  // The unit names the numbers; it changes none of them.
  check_same_measures(solved,
                      json_of(crawlq({"solve", shipped("teaching-two-robots.yaml"), "--json"})), 0);
}

TEST_CASE("time_unit: describe, simulate and validate name it", "[cli][time-unit]") {
  TempDirectory dir;
  const std::string file = with_line(dir, "time_unit: ms");
  const ProcessResult described = crawlq({"describe", file});
  CHECK_THAT(described.out, Catch::Contains("mean 0.5 ms, sd 0.5 ms"));
  CHECK_THAT(described.out, Catch::Contains("at most 2 pages per ms"));
  CHECK(json_of(crawlq({"describe", file, "--json"})).at("time_unit") == "ms");
  const ProcessResult simulated =
      crawlq({"simulate", file, "--replications", "3", "--horizon", "500"});
  INFO(report(simulated));
  CHECK_THAT(simulated.out, Catch::Contains("3 replications of 500 ms"));
  CHECK_THAT(simulated.out,
             Catch::Matches("(.|\n)*lambda +[0-9.]+ \\+- [0-9.e-]+ +pages per ms\n(.|\n)*"));
  CHECK(json_of(crawlq({"simulate", file, "--replications", "3", "--horizon", "500", "--json"}))
            .at("time_unit") == "ms");
  const ProcessResult validated = crawlq({"validate", file, "--replications", "4"});
  CHECK_THAT(validated.out, Catch::Contains("pages offered per ms (lambda)"));
  CHECK(json_of(crawlq({"validate", file, "--replications", "4", "--json"}))
            .at("scenarios")
            .at(0)
            .at("time_unit") == "ms");
}

TEST_CASE("time_unit: a page-refresh scenario names it too", "[cli][time-unit]") {
  TempDirectory dir;
  const std::string text = read_text(shipped("refresh-paper-example.yaml"));
  const auto at = text.find("\nrefresh:");
  REQUIRE(at != std::string::npos);
  std::string changed = text;
  changed.insert(at + 1, "time_unit: days\n");
  const std::string file = dir.write("refresh.yaml", changed);
  const ProcessResult run = crawlq({"refresh", file, "--simulate", "--replications", "2"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.out, Catch::Contains("both per day; E[X] in days"));
  CHECK_THAT(run.out, Catch::Contains("2 replications of "));
  CHECK_THAT(run.out, Catch::Matches("(.|\n)*2 replications of [0-9.e+]+ days, seed(.|\n)*"));
  CHECK(json_of(crawlq({"refresh", file, "--json"})).at("time_unit") == "day");
  check_refused(crawlq({"refresh", dir.write("bad.yaml", "time_unit: 3 days\n" + text)}),
                {"time_unit"});
}

TEST_CASE("time_unit: a scenario without one speaks of time units", "[cli][time-unit]") {
  const std::string file = shipped("teaching-two-robots.yaml");
  const ProcessResult run = crawlq({"solve", file, "--sojourn"});
  CHECK_THAT(run.out, Catch::Contains("pages per unit time"));
  CHECK_THAT(run.out, Catch::Contains("sojourn times in time units"));
  CHECK(json_of(crawlq({"solve", file, "--json"})).at("time_unit") == "");
}

TEST_CASE("time_unit: anything but one word of letters is refused naming the key",
          "[cli][time-unit][bad-input]") {
  TempDirectory dir;
  const std::string value = GENERATE(as<std::string>{}, "\"min.\"", "5", "\"\"", "[minute]",
                                     "\"two words\"", "abcdefghijklmnopqrstuvwxy");
  INFO(value);
  check_refused(crawlq({"solve", with_line(dir, "time_unit: " + value)}), {"time_unit"});
}

}  // namespace
}  // namespace crawlq::cli_test
