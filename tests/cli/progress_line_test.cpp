// The progress line: the step, the count of the total and the time left, on stderr only, when a
// person asked for it (a terminal, or CRAWLQ_PROGRESS=1 as here); never in a pipe otherwise, and
// never on stdout.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

ProcessResult with_progress(const std::string& setting, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"/usr/bin/env", "CRAWLQ_PROGRESS=" + setting, CRAWLQ_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

TEST_CASE("progress: solve names each step it starts", "[cli][progress]") {
  const std::vector<std::string> args{"solve", shipped("teaching-two-robots.yaml"), "--sojourn",
                                      "--times", "1"};
  const ProcessResult run = with_progress("1", args);
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  for (const char* step : {"the stationary solve", "the transient", "the sojourn times' laws"}) {
    INFO(step);
    CHECK_THAT(run.err, Catch::Contains("crawlq: solve " + shipped("teaching-two-robots.yaml") +
                                        ": " + step));
  }
  CHECK_THAT(run.err, Catch::Contains(" so far"));
  // The results are the same as without it, and stdout holds none of it.
  CHECK_THAT(run.out, !Catch::Contains("crawlq: solve"));
  const ProcessResult quiet = with_progress("0", args);
  CHECK(quiet.err.empty());
}

TEST_CASE("progress: simulate counts the replications of a fixed run and says what is left",
          "[cli][progress]") {
  const ProcessResult run = with_progress(
      "1", {"simulate", shipped("teaching-two-robots.yaml"), "--replications", "4", "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.err, Catch::Contains("1 of 4 replications done"));
  CHECK_THAT(run.err, Catch::Contains("4 of 4 replications done"));
  CHECK_THAT(run.err, Catch::Matches("(.|\n)*2 of 4 replications done, [^\n]* s so far, (under 1 "
                                     "s|about [0-9]+ s) left\n(.|\n)*"));
  CHECK(json_of(run).at("replications") == 4);
  // Under --precision the total is not known: the count alone, and the bound on the time.
  const ProcessResult precise =
      with_progress("1", {"simulate", shipped("teaching-two-robots.yaml"), "--precision", "0.05"});
  CHECK_THAT(precise.err, Catch::Contains("until --precision 0.05 is met (at most --time-limit"));
  CHECK_THAT(precise.err, !Catch::Contains(" left"));
}

TEST_CASE("progress: optimize shows its search's stages", "[cli][progress]") {
  const ProcessResult run =
      with_progress("1", {"optimize", shipped("paper-example-1.yaml"), "--class", "all"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.err, Catch::Contains("crawlq: optimize " + shipped("paper-example-1.yaml") +
                                      ": the best all policy"));
  CHECK(lines_of(run.err).size() >= 3);
}

TEST_CASE("progress: validate counts the files, sweep names its values", "[cli][progress]") {
  const ProcessResult validated = with_progress(
      "1", {"validate", shipped("teaching-two-robots.yaml"), shipped("paper-example-1.yaml"),
            "--replications", "3", "--horizon", "2000"});
  INFO(report(validated));
  CHECK_THAT(validated.err,
             Catch::Contains("crawlq: validate: " + shipped("teaching-two-robots.yaml") + ", "));
  CHECK_THAT(validated.err,
             Catch::Contains(shipped("paper-example-1.yaml") + ", 1 of 2 files done"));
  // The tables come out whole on stdout, the lines on stderr.
  CHECK_THAT(validated.out, !Catch::Contains("crawlq: validate"));
  const ProcessResult swept = with_progress("1", {"sweep", shipped("teaching-two-robots.yaml"),
                                                  "--param", "capacity", "--values", "3,4"});
  CHECK_THAT(swept.err, Catch::Contains("the best policy at each of 2 values of capacity"));
}

TEST_CASE("progress: nothing in a pipe unless asked", "[cli][progress]") {
  const ProcessResult run =
      crawlq({"simulate", shipped("teaching-two-robots.yaml"), "--replications", "4"});
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.err, !Catch::Contains("so far"));
}

}  // namespace
}  // namespace crawlq::cli_test
