// simulate and validate --arrivals-log: the log's own batches replayed in place of the arrival law,
// said in the table and the JSON; every refusal names the flag. That the replay is exact is
// checked against the MAP that wrote a log (tests/crosscheck/replay_vs_exact_test.cpp).
#include <catch2/catch.hpp>
#include <string>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

TEST_CASE("simulate --arrivals-log: the shipped log replayed, said in the table and the JSON",
          "[cli][replay]") {
  const std::vector<std::string> run_flags{"simulate",       shipped("paper-example-1.yaml"),
                                           "--arrivals-log", "synthetic-crawler",
                                           "--replications", "3",
                                           "--horizon",      "20000",
                                           "--warmup",       "0"};
  std::vector<std::string> with_json = run_flags;
  with_json.push_back("--json");
  const ProcessResult run = crawlq(with_json);
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json j = json_of(run);
  const json& log = j.at("arrivals_log");
  CHECK(log.at("log") == "synthetic-crawler");
  CHECK(log.at("batches").get<int>() > 1000);
  CHECK(log.at("pages").get<double>() >= log.at("batches").get<double>());
  CHECK(log.at("length").get<double>() > 0);
  // The replay, not the scenario's law: the paper's example offers about 1.8 pages per unit time
  // under this policy, the log's crawler far fewer.
  CHECK(j.at("lambda").at("mean").get<double>() < 0.5);
  const json plain = json_of(crawlq({"simulate", shipped("paper-example-1.yaml"), "--replications",
                                     "3", "--horizon", "2000", "--json"}));
  CHECK_FALSE(plain.contains("arrivals_log"));
  CHECK(plain.at("lambda").at("mean").get<double>() > 1);
  // --batch-gap 0 cuts the log as fit arrivals --batch-gap 0 does: only equal times join, so every
  // delivery of the shipped log is a batch of its own.
  std::vector<std::string> unbatched = with_json;
  unbatched.insert(unbatched.end(), {"--batch-gap", "0"});
  const json each = json_of(crawlq(unbatched));
  CHECK(each.at("arrivals_log").at("batches").get<double>() ==
        each.at("arrivals_log").at("pages").get<double>());
  CHECK(each.at("arrivals_log").at("batches").get<int>() > log.at("batches").get<int>());
  const ProcessResult table = crawlq(run_flags);
  CHECK_THAT(table.out, Catch::Contains("arrivals: synthetic-crawler replayed in place of the "
                                        "scenario's law"));
}

TEST_CASE("validate --arrivals-log: the fitted law's answer beside the log's", "[cli][replay]") {
  TempDirectory dir;
  const std::string fitted = (dir.path() / "fitted.yaml").string();
  const ProcessResult fit = crawlq({"fit", "arrivals", "synthetic-crawler", "--scenario",
                                    shipped("paper-example-1.yaml"), "--out", fitted});
  INFO(report(fit));
  REQUIRE(fit.exit_status == 0);
  const ProcessResult run =
      crawlq({"validate", fitted, "--arrivals-log", "synthetic-crawler", "--replications", "3",
              "--horizon", "200000", "--warmup", "0", "--json"});
  INFO(report(run));
  // 1: some measure disagrees, which is what the replay is for (the fitted law's own error).
  REQUIRE((run.exit_status == 0 || run.exit_status == 1));
  const json all = json_of(run);
  const json& scenario = all.at("scenarios").at(0);
  CHECK(scenario.at("arrivals_log").at("log") == "synthetic-crawler");
  CHECK(scenario.at("exact_engine") == true);
  CHECK_FALSE(scenario.at("measures").empty());

  // Over time too: the log replayed from the same start names itself as the long run's does.
  const ProcessResult over_time = crawlq({"validate", fitted, "--arrivals-log", "synthetic-crawler",
                                          "--times", "50,100", "--replications", "20", "--json"});
  INFO(report(over_time));
  REQUIRE((over_time.exit_status == 0 || over_time.exit_status == 1));
  const json transient = json_of(over_time);
  CHECK(transient.at("scenarios").at(0).at("arrivals_log").at("log") == "synthetic-crawler");
  CHECK(transient.at("scenarios").at(0).at("times") == json::array({50.0, 100.0}));
}

TEST_CASE("validate --arrivals-log: the default horizon at the replay's pace, not the file's",
          "[cli][replay]") {
  // The paper's example offers pages about a hundred times as fast as the shipped log: a horizon at
  // the file's pace would give each replication a few thousand of the log's pages.
  const ProcessResult run =
      crawlq({"validate", shipped("paper-example-1.yaml"), "--arrivals-log", "synthetic-crawler",
              "--replications", "2", "--precision", "0", "--json"});
  INFO(report(run));
  REQUIRE((run.exit_status == 0 || run.exit_status == 1));
  const json scenario = json_of(run).at("scenarios").at(0);
  const json& log = scenario.at("arrivals_log");
  const double log_pages_per_time = log.at("pages").get<double>() / log.at("length").get<double>();
  // About a million pages a replication at the pace the policy keeps: between one and four robots
  // each replay the log.
  const double pages_at_one_robot = scenario.at("horizon").get<double>() * log_pages_per_time;
  CHECK(pages_at_one_robot > 2e5);
  CHECK(pages_at_one_robot < 1.5e6);
}

TEST_CASE("simulate --arrivals-log: refusals name the flag", "[cli][replay]") {
  TempDirectory dir;
  const ProcessResult missing = crawlq({"simulate", shipped("paper-example-1.yaml"),
                                        "--arrivals-log", (dir.path() / "none.log").string()});
  CHECK(missing.exit_status == 2);
  CHECK_THAT(missing.err, Catch::Contains("--arrivals-log"));
  const ProcessResult one_batch =
      crawlq({"simulate", shipped("paper-example-1.yaml"), "--arrivals-log",
              dir.write("one.log", "5\n5\n5\n"), "--replications", "3", "--horizon", "10"});
  CHECK(one_batch.exit_status == 2);
  CHECK_THAT(one_batch.err,
             Catch::Contains("--arrivals-log") && Catch::Contains("no time between two batches"));
  // The cuts mean nothing without a log to cut.
  const ProcessResult alone = crawlq({"simulate", shipped("paper-example-1.yaml"), "--batch-gap",
                                      "0.1", "--replications", "3", "--horizon", "10"});
  CHECK(alone.exit_status == 2);
  CHECK_THAT(alone.err, Catch::Contains("--batch-gap") && Catch::Contains("--arrivals-log"));
  const ProcessResult negative =
      crawlq({"simulate", shipped("paper-example-1.yaml"), "--arrivals-log", "synthetic-crawler",
              "--censor-gap", "-1", "--replications", "3", "--horizon", "10"});
  CHECK(negative.exit_status == 2);
  CHECK_THAT(negative.err, Catch::Contains("--censor-gap"));
  // A policy by arrival phase: a log has no phases.
  const std::string policy =
      dir.write("phases.yaml", "phase-aware: [[1, 3], [1, 3], [1, 3], [1, 1], [1, 1], [1, 1]]\n");
  const ProcessResult phases =
      crawlq({"simulate", shipped("paper-example-1.yaml"), "--policy", policy, "--arrivals-log",
              "synthetic-crawler", "--replications", "3", "--horizon", "10"});
  CHECK(phases.exit_status == 2);
  CHECK_THAT(phases.err, Catch::Contains("has none"));
}

}  // namespace
}  // namespace crawlq::cli_test
