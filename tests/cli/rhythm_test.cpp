// A scenario with a rhythm at the command line: solve's periodic regime as a table and as JSON (the
// keys of interface.md), describe's account of it, every bad rhythm refused naming its key, and
// every command that does not follow a rhythm yet refusing it rather than ignoring it.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

// The paper's first example with `rhythm_line` appended.
std::string with_rhythm(const TempDirectory& dir, const std::string& rhythm_line,
                        const std::string& name = "day.yaml") {
  std::ifstream in(shipped("paper-example-1.yaml"));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::filesystem::path path = dir.path() / name;
  std::ofstream(path) << text << "\n" << rhythm_line << "\n";
  return path.string();
}

constexpr const char* kDay =
    "rhythm: {period: 24, scales: [0.6, 0.5, 0.5, 0.7, 1.0, 1.4, 1.6, 1.5]}";

}  // namespace

TEST_CASE("solve on a rhythm: the period's averages and each piece's, as JSON and as a table",
          "[cli][rhythm]") {
  const TempDirectory dir;
  const std::string file = with_rhythm(dir, kDay);
  const ProcessResult run = crawlq({"solve", file, "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json j = json_of(run);
  CHECK(j.at("rhythm").at("period") == 24.0);
  CHECK(j.at("rhythm").at("pieces") == 8);
  CHECK(j.at("rhythm").at("residual").get<double>() <= 1e-11);
  CHECK(j.at("rhythm").at("converged") == true);
  REQUIRE(j.at("pieces").size() == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    const json& piece = j.at("pieces")[i];
    CHECK(piece.at("start").get<double>() == Approx(3.0 * static_cast<double>(i)));
    for (const char* key : {"lambda", "p_loss", "p_obsolete", "p_served", "mean_in_system",
                            "mean_active_robots", "cost", "mean_sojourn_served"})
      CHECK(piece.at(key).is_number());
    CHECK(piece.at("level_probabilities_at_start").size() == 6);
  }
  for (const char* key : {"lambda", "p_loss", "p_obsolete", "p_served", "mean_sojourn", "cost",
                          "seconds", "seconds_periodic"})
    CHECK(j.at(key).is_number());
  // The busiest pieces lose the most pages.
  CHECK(j.at("pieces")[6].at("p_loss").get<double>() >
        j.at("pieces")[1].at("p_loss").get<double>());

  const ProcessResult table = crawlq({"solve", file});
  INFO(report(table));
  REQUIRE(table.exit_status == 0);
  CHECK_THAT(table.out, Catch::Contains("arrivals follow a rhythm: a period of 24 time units in 8 "
                                        "pieces") &&
                            Catch::Contains("the period piece by piece"));

  const ProcessResult described = crawlq({"describe", file, "--json"});
  REQUIRE(described.exit_status == 0);
  CHECK(json_of(described).at("rhythm").at("scales").size() == 8);
}

TEST_CASE("a bad rhythm is refused naming its key and value", "[cli][rhythm]") {
  const TempDirectory dir;
  const auto [line, expected] = GENERATE(table<std::string, std::string>(
      {{"rhythm: {period: 0, scales: [1, 2]}", "rhythm.period: 0"},
       {"rhythm: {period: -3, scales: [1, 2]}", "rhythm.period: -3"},
       {"rhythm: {period: .inf, scales: [1, 2]}", "rhythm.period"},
       {"rhythm: {period: 24, scales: []}", "rhythm.scales: empty"},
       {"rhythm: {period: 24, scales: [1, 0]}", "rhythm.scales[1]: 0"},
       {"rhythm: {period: 24, scales: [1, -2]}", "rhythm.scales[1]: -2"},
       {"rhythm: {period: 24, scales: [1, .nan]}", "rhythm.scales[1]"},
       {"rhythm: {period: 24, scales: [1, 1e308]}", "rhythm.scales[1]"},
       {"rhythm: {period: 24, scales: 2}", "rhythm.scales"},
       {"rhythm: {period: 24}", "rhythm"},
       {"rhythm: {period: 24, scales: [1], phase: 3}", "rhythm"},
       {"rhythm: [1, 2]", "rhythm"}}));
  INFO(line);
  const ProcessResult run = crawlq({"solve", with_rhythm(dir, line)});
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK_THAT(run.err, Catch::Contains(expected));
  CHECK(run.out.empty());
}

TEST_CASE("a rhythm of more than 10,000 pieces is refused", "[cli][rhythm]") {
  const TempDirectory dir;
  std::string scales = "rhythm: {period: 24, scales: [1";
  for (int i = 0; i < 10'000; ++i) scales += ", 1";
  const ProcessResult run = crawlq({"solve", with_rhythm(dir, scales + "]}")});
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK_THAT(run.err, Catch::Contains("10001 pieces"));
}

TEST_CASE("commands that do not follow a rhythm yet refuse it rather than ignore it",
          "[cli][rhythm]") {
  const TempDirectory dir;
  const std::string file = with_rhythm(dir, kDay);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"simulate", file},
           {"validate", file},
           {"optimize", file},
           {"sweep", file, "--param", "capacity", "--values", "3,4"},
           {"solve", file, "--times", "1,2"},
           {"solve", file, "--sensitivity"}}) {
    const ProcessResult run = crawlq(args);
    INFO(report(run));
    CHECK(run.exit_status == 2);
    CHECK_THAT(run.err, Catch::Contains("rhythm"));
    CHECK(run.out.empty());
  }
}

}  // namespace crawlq::cli_test
