// `crawlq simulate --times` and `validate --times`: the simulator's transient keys as intervals at
// each time, the same numbers for any thread count, the start a policy file's long run, the two
// engines set side by side, and every setting a transient cannot take refused with exit 2 naming
// the flag.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

json simulate_json(std::vector<std::string> args) {
  args.insert(args.begin(), {"simulate", shipped("paper-example-1.yaml")});
  args.push_back("--json");
  const ProcessResult run = crawlq(args);
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  return json_of(run);
}

}  // namespace

TEST_CASE("simulate --times: every key of interface.md at every time, as an interval",
          "[cli][simulate][transient]") {
  const json j = simulate_json({"--times", "0,0.5,3", "--from", "full", "--replications", "300"});
  CHECK(j.at("from") == "full");
  CHECK(j.at("replications") == 300);
  REQUIRE(j.at("times").size() == 3);
  for (const json& p : j.at("times")) {
    INFO(p.dump());
    CHECK(p.at("t").is_number());
    for (const char* key : {"mean_in_system", "mean_in_queue", "mean_active_robots", "p_empty",
                            "offered_rate", "loss_rate", "obsolescence_rate", "service_rate",
                            "offered", "lost", "obsolete", "served", "cost_accumulated"}) {
      CHECK(p.at(key).contains("mean"));
      CHECK(p.at(key).contains("half_width"));
    }
    double total = 0;
    for (const auto& level : p.at("level_probabilities")) total += level.at("mean").get<double>();
    CHECK_THAT(total, Catch::Matchers::WithinAbs(1.0, 1e-12));
  }
  // At 0 every replication holds K pages and has counted nothing; a rate over no time is null.
  const json& first = j.at("times")[0];
  CHECK_THAT(first.at("level_probabilities").back().at("mean").get<double>(),
             Catch::Matchers::WithinAbs(1.0, 1e-12));
  CHECK_THAT(first.at("level_probabilities").back().at("half_width").get<double>(),
             Catch::Matchers::WithinAbs(0.0, 1e-12));
  CHECK(first.at("served").at("mean") == 0.0);
  CHECK(first.at("loss_rate").at("mean").is_null());
  // The buffer drains: fewer pages at 3 than at 0.5, and pages served by then.
  CHECK(j.at("times")[2].at("mean_in_system").at("mean").get<double>() <
        j.at("times")[1].at("mean_in_system").at("mean").get<double>());
  CHECK(j.at("times")[2].at("served").at("mean").get<double>() > 1);
}

TEST_CASE("simulate --times: the same numbers on one thread and on two",
          "[cli][simulate][transient]") {
  const std::vector<std::string> args{"--times",  "1,4", "--from",         "stationary",
                                      "--outage", "1.5", "--replications", "120",
                                      "--seed",   "9"};
  std::vector<std::string> one = args, two = args;
  one.insert(one.end(), {"--threads", "1"});
  two.insert(two.end(), {"--threads", "2"});
  json a = simulate_json(one), b = simulate_json(two);
  CHECK(a.at("warmup").get<double>() > 0);
  a.erase("seconds"), b.erase("seconds");
  CHECK(a == b);
}

TEST_CASE("simulate --from FILE: a policy file's long run, this policy taking over at 0",
          "[cli][simulate][transient]") {
  const TempDirectory dir;
  // Few robots before: the buffer holds little at 0 and fills under the scenario's policy.
  const std::string policy =
      dir.write("few-robots.yaml", "policy:\n  levels: [1, 1, 1, 1, 1, 1]\n");
  const json switched =
      simulate_json({"--from", policy, "--times", "0,20", "--replications", "300"});
  const json own = simulate_json({"--from", "stationary", "--times", "0", "--replications", "300"});
  CHECK(switched.at("from") == policy);
  const auto mean = [](const json& j, std::size_t i) {
    return j.at("times")[i].at("mean_in_system").at("mean").get<double>();
  };
  CHECK(mean(switched, 0) < mean(own, 0) - 0.5);
  CHECK(mean(switched, 1) > mean(switched, 0) + 0.5);
  // A scenario or a state distribution starts only the exact engine.
  check_refused(crawlq({"simulate", shipped("paper-example-1.yaml"), "--from",
                        shipped("paper-example-1.yaml"), "--times", "1"}),
                {"--from", "starts only the exact engine (solve)"});
}

TEST_CASE("simulate --times --compare: B - A at each time on common random numbers",
          "[cli][simulate][transient]") {
  const json j = simulate_json({"--times", "1,4", "--compare", "thresholds=0,2,2", "--outage", "1",
                                "--replications", "400"});
  CHECK(j.at("outage") == 1.0);
  CHECK(j.at("replications") == 400);
  for (std::size_t i = 0; i < 2; ++i) {
    for (const char* key : {"mean_in_system", "lost", "cost_accumulated", "offered"}) {
      INFO(key << " at " << i);
      const json& a = j.at("a").at("times")[i].at(key);
      const json& b = j.at("b").at("times")[i].at(key);
      const json& d = j.at("difference").at("times")[i].at(key);
      // The mean of the differences is the difference of the means; pairing the replications
      // (the same arrivals in both) makes its interval narrower than two independent runs' would
      // be.
      CHECK_THAT(d.at("mean").get<double>(),
                 Catch::Matchers::WithinAbs(b.at("mean").get<double>() - a.at("mean").get<double>(),
                                            1e-9));
      CHECK(d.at("half_width").get<double>() <
            std::hypot(a.at("half_width").get<double>(), b.at("half_width").get<double>()));
    }
  }
  // More robots at level 0 (B) offer more pages.
  CHECK(j.at("difference").at("times")[1].at("offered").at("mean").get<double>() > 0);
}

TEST_CASE("validate --times: both engines curve by curve, judged together",
          "[cli][validate][transient]") {
  const ProcessResult run =
      crawlq({"validate", shipped("paper-example-1.yaml"), "--from", "full", "--outage", "1",
              "--times", "0.5,1,2,4", "--replications", "400", "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json j = json_of(run);
  const json& scenario = j.at("scenarios")[0];
  CHECK(scenario.at("from") == "full");
  CHECK(scenario.at("outage") == 1.0);
  CHECK(scenario.at("agrees") == true);
  // Every key at every time, the levels' probabilities with them.
  CHECK(scenario.at("measures").size() == 4 * (13 + 6));
  for (const json& m : scenario.at("measures")) {
    CHECK(m.at("t").is_number());
    CHECK(m.at("exact").is_number());
  }
  const ProcessResult table = crawlq(
      {"validate", shipped("paper-example-1.yaml"), "--times", "1,2", "--replications", "200"});
  REQUIRE(table.exit_status == 0);
  CHECK_THAT(table.out, Catch::Matchers::Contains("each curve at its worst time"));
  CHECK_THAT(table.out, Catch::Matchers::Contains("pages lost per unit time, at "));
  CHECK_THAT(table.out, !Catch::Matchers::Contains("loss_rate"));
}

TEST_CASE("simulate --times: settings a transient cannot take are refused naming the flag",
          "[cli][simulate][transient]") {
  const std::string file = shipped("paper-example-1.yaml");
  check_refused(crawlq({"simulate", file, "--times", "1", "--precision", "0.05"}),
                {"--precision: 0.05", "exactly --replications"});
  check_refused(crawlq({"simulate", file, "--times", "1", "--horizon", "100"}),
                {"--horizon: 100", "last time"});
  check_refused(crawlq({"simulate", file, "--outage", "2"}), {"--times", "give the times"});
  check_refused(crawlq({"simulate", file, "--times", "2,1"}), {"--times", "increasing order"});
  check_refused(crawlq({"simulate", file, "--times", "1", "--outage", "-1"}), {"--outage: -1"});
  check_refused(crawlq({"simulate", file, "--times", "1", "--from", "nowhere"}),
                {"--from", "no such file"});
  check_refused(crawlq({"validate", file, "--times", "1", "--precision", "0.01"}), {"--precision"});
}

}  // namespace crawlq::cli_test
