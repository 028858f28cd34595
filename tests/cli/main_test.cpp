// The command line itself: help on stdout with exit 0; no command, an unknown command or an
// unknown flag refused with exit 2 and nothing on stdout.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

TEST_CASE("crawlq --help: usage on stdout, exit 0", "[cli][usage]") {
  const ProcessResult run = crawlq({"--help"});
  INFO(report(run));
  CHECK(run.exit_status == 0);
  CHECK(run.err.empty());
  CHECK_THAT(run.out, Catch::Contains("Usage", Catch::CaseSensitive::No));
  for (const char* command : {"solve", "optimize", "describe"}) {
    INFO("command " << command);
    CHECK_THAT(run.out, Catch::Contains(command));
  }
}

TEST_CASE("crawlq COMMAND --help: the command's usage on stdout, exit 0", "[cli][usage]") {
  const auto [command, flags] = GENERATE(table<std::string, std::vector<std::string>>(
      {{"solve",
        {"--thresholds", "--levels", "--method", "--sojourn", "--lst", "--cdf", "--export",
         "--json"}},
       {"optimize", {"--class", "--threads", "--json"}},
       {"describe", {"--json"}}}));
  const ProcessResult run = crawlq({command, "--help"});
  INFO(report(run));
  CHECK(run.exit_status == 0);
  CHECK(run.err.empty());
  CHECK_THAT(run.out, Catch::Contains("Usage", Catch::CaseSensitive::No) &&
                          Catch::Contains(command) && Catch::Contains("FILE"));
  for (const auto& flag : flags) {
    INFO("flag " << flag);
    CHECK_THAT(run.out, Catch::Contains(flag));
  }
}

TEST_CASE("crawlq --help and every command's --help fit in 100 columns", "[cli][usage]") {
  std::vector<std::vector<std::string>> asks{{"--help"}};
  for (const char* command : {"solve", "optimize", "describe", "simulate", "validate", "reproduce",
                              "sweep", "fit", "refresh", "lab", "scenarios", "schema"})
    asks.push_back({command, "--help"});
  for (const auto& ask : asks) {
    const ProcessResult run = crawlq(ask);
    INFO(ask.front());
    REQUIRE(run.exit_status == 0);
    std::istringstream lines(run.out);
    std::size_t count = 0;
    for (std::string line; std::getline(lines, line); ++count) {
      INFO(line);
      CHECK(line.size() <= 100);
    }
    CHECK(count > 3);
  }
}

TEST_CASE("crawlq with no command: exit 2, nothing on stdout, a message", "[cli][usage]") {
  const ProcessResult run = crawlq({});
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK(run.out.empty());
  // Says what is missing and lists the commands this build has.
  CHECK_THAT(run.err, Catch::Contains("no command given") && Catch::Contains("solve") &&
                          Catch::Contains("optimize") && Catch::Contains("describe"));
}

TEST_CASE("crawlq with an unknown command: exit 2, the message names it and says unknown",
          "[cli][usage]") {
  const std::string command = GENERATE("frobnicate", "solver", "simulatee");
  const ProcessResult run = crawlq({command, shipped("paper-example-1.yaml")});
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err,
             Catch::Contains("unknown", Catch::CaseSensitive::No) && Catch::Contains(command));
  CHECK_THAT(run.err, Catch::Contains("solve"));  // the commands this build has
}

TEST_CASE("crawlq: an unknown flag or a missing FILE is refused with exit 2", "[cli][usage]") {
  const std::vector<std::string> args = GENERATE(
      std::vector<std::string>{"solve", "--json"}, std::vector<std::string>{"optimize"},
      std::vector<std::string>{"describe", "--json"},
      std::vector<std::string>{"solve", shipped("paper-example-1.yaml"), "--frobnicate"},
      std::vector<std::string>{"optimize", shipped("paper-example-1.yaml"), "--thresholds",
                               "-1,2,2"},
      std::vector<std::string>{"describe", shipped("paper-example-1.yaml"), "extra-argument"});
  const ProcessResult run = crawlq(args);
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK(run.out.empty());
  CHECK_FALSE(run.err.empty());
}

}  // namespace
}  // namespace crawlq::cli_test
