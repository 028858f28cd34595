// `crawlq solve --times`: the transient's keys, what its numbers must satisfy against the long run
// the same run solves (a start in the long run stays there; an outage costs pages), the times of
// --until and --points, and every bad input refused with exit 2 naming the flag.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

json solve_json(std::vector<std::string> args) {
  args.insert(args.begin(), {"solve", shipped("paper-example-1.yaml")});
  args.push_back("--json");
  const ProcessResult run = crawlq(args);
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  return json_of(run);
}

}  // namespace

TEST_CASE("solve --times: every key of interface.md at every time", "[cli][solve][transient]") {
  const json j = solve_json({"--times", "0,0.5,3", "--from", "full"});
  CHECK(j.at("from") == "full");
  CHECK(j.at("outage") == 0.0);
  CHECK(j.at("truncation_error").get<double>() <= 1e-10);
  CHECK(j.at("transient_method") == "uniformisation");  // a short horizon
  CHECK(j.at("seconds_transient").get<double>() <= j.at("seconds").get<double>());
  REQUIRE(j.at("times").size() == 3);
  const std::vector<double> t{0, 0.5, 3};
  for (std::size_t i = 0; i < 3; ++i) {
    const json& p = j.at("times")[i];
    INFO(p.dump());
    CHECK(p.at("t") == t[i]);
    for (const char* key :
         {"mean_in_system", "mean_in_queue", "mean_active_robots", "p_empty", "offered_rate",
          "loss_rate", "obsolescence_rate", "service_rate", "offered", "lost", "obsolete", "served",
          "cost_accumulated", "excess_lost", "excess_obsolete"})
      CHECK(p.at(key).is_number());
    double total = 0;
    for (const auto& level : p.at("level_probabilities")) total += level.get<double>();
    CHECK_THAT(total, Catch::Matchers::WithinAbs(1.0, 1e-9));
  }
  // From full: at 0 every page is there, nothing counted yet; the buffer drains.
  const json& first = j.at("times")[0];
  CHECK_THAT(first.at("level_probabilities").back().get<double>(),
             Catch::Matchers::WithinAbs(1.0, 1e-12));
  CHECK_THAT(first.at("mean_in_system").get<double>(), Catch::Matchers::WithinAbs(5.0, 1e-11));
  CHECK(first.at("served") == 0.0);
  CHECK(j.at("times")[2].at("mean_in_system").get<double>() <
        j.at("times")[1].at("mean_in_system").get<double>());
}

TEST_CASE("solve --times --from stationary stays in the long run, and an outage costs pages",
          "[cli][solve][transient]") {
  const json steady = solve_json({"--times", "2,7", "--from", "stationary"});
  for (const json& p : steady.at("times")) {
    INFO(p.dump());
    for (std::size_t level = 0; level < p.at("level_probabilities").size(); ++level)
      CHECK_THAT(
          p.at("level_probabilities")[level].get<double>(),
          Catch::Matchers::WithinAbs(steady.at("level_probabilities")[level].get<double>(), 1e-9));
    const double t = p.at("t").get<double>();
    CHECK_THAT(p.at("offered").get<double>(),
               Catch::Matchers::WithinRel(steady.at("lambda").get<double>() * t, 1e-8));
    CHECK_THAT(p.at("excess_lost").get<double>(), Catch::Matchers::WithinAbs(0.0, 1e-8));
    // The cost (2) less its sojourn term a V(1) (a = 2 in the file) is a rate: t of it.
    CHECK_THAT(p.at("cost_accumulated").get<double>(),
               Catch::Matchers::WithinRel((steady.at("cost").get<double>() -
                                           2.0 * steady.at("mean_sojourn_served").get<double>()) *
                                              t,
                                          1e-8));
  }
  const json outage = solve_json({"--times", "1,2,10", "--from", "stationary", "--outage", "2"});
  CHECK(outage.at("outage") == 2.0);
  const json& during = outage.at("times")[0];
  CHECK(during.at("service_rate") == 0.0);
  CHECK(during.at("served") == 0.0);
  const json& after = outage.at("times")[2];
  CHECK(after.at("service_rate").get<double>() > 0);
  CHECK(after.at("excess_lost").get<double>() > 0);
  CHECK(after.at("excess_obsolete").get<double>() > 0);
  CHECK(outage.at("times")[1].at("mean_in_system").get<double>() >
        steady.at("mean_in_system").get<double>());
}

TEST_CASE(
    "solve --times: a long horizon by Krylov steps reaches the long run and counts at its rate",
    "[cli][solve][transient]") {
  // Uniformisation would take q t, tens of thousands of products, here.
  const json j = solve_json({"--times", "0.5,20,3000", "--from", "full"});
  CHECK(j.at("transient_method") == "krylov");
  CHECK(j.at("truncation_error").get<double>() <= 1e-10);
  const json& early = j.at("times")[0];
  CHECK(early.at("mean_in_system").get<double>() > j.at("mean_in_system").get<double>() + 0.5);
  const json& late = j.at("times")[2];
  for (std::size_t level = 0; level < late.at("level_probabilities").size(); ++level)
    CHECK_THAT(late.at("level_probabilities")[level].get<double>(),
               Catch::Matchers::WithinAbs(j.at("level_probabilities")[level].get<double>(), 1e-9));
  // Between 20 and 3000 the chain is in its long run: the counts grow at its rates.
  const json& middle = j.at("times")[1];
  CHECK_THAT(late.at("lost").get<double>() - middle.at("lost").get<double>(),
             Catch::Matchers::WithinRel(
                 j.at("lambda").get<double>() * j.at("p_loss").get<double>() * 2980, 1e-3));
  CHECK_THAT(late.at("served").get<double>() - middle.at("served").get<double>(),
             Catch::Matchers::WithinRel(
                 j.at("lambda").get<double>() * j.at("p_served").get<double>() * 2980, 1e-3));
}

TEST_CASE("solve --until T --points n reports n times evenly spaced up to T",
          "[cli][solve][transient]") {
  const json j = solve_json({"--until", "10", "--points", "4"});
  std::vector<double> times;
  for (const json& p : j.at("times")) times.push_back(p.at("t").get<double>());
  CHECK(times == std::vector<double>{2.5, 5, 7.5, 10});
  CHECK(j.at("from") == "empty");
  CHECK(solve_json({"--until", "3"}).at("times").size() == 50);
}

TEST_CASE("solve --drain-to: the mean time to drain, and its distribution at the times",
          "[cli][solve][transient]") {
  const json j = solve_json({"--from", "full", "--drain-to", "2", "--times", "0,1,3,60"});
  const json& drain = j.at("drain");
  CHECK(drain.at("level") == 2);
  CHECK(drain.at("mean").get<double>() > 0);
  const std::vector<double> cdf = drain.at("cdf").get<std::vector<double>>();
  REQUIRE(cdf.size() == 4);
  CHECK(cdf[0] == 0.0);  // from full, nothing has drained at 0
  CHECK(cdf[1] < cdf[2]);
  CHECK_THAT(cdf[3], Catch::Matchers::WithinAbs(1.0, 1e-9));
  // The mean is the integral of 1 - F: between the two Riemann sums on a fine grid.
  std::string grid;
  for (int i = 0; i <= 400; ++i) {
    if (i > 0) grid += ',';
    grid += std::to_string(i * 0.05);
  }
  const std::vector<double> fine =
      solve_json({"--from", "full", "--drain-to", "2", "--times", grid}).at("drain").at("cdf");
  double lower = 0, upper = 0;
  for (std::size_t i = 0; i + 1 < fine.size(); ++i) {
    lower += 0.05 * (1 - fine[i + 1]);
    upper += 0.05 * (1 - fine[i]);
  }
  CHECK(lower <= drain.at("mean").get<double>());
  CHECK(drain.at("mean").get<double>() <= upper + 1e-9);
  // Without times: the mean alone; from the empty system it has drained already.
  const json alone = solve_json({"--drain-to", "1"});
  CHECK(alone.at("drain").at("mean") == 0.0);
  CHECK(alone.at("drain").at("cdf").empty());
  CHECK_FALSE(alone.contains("times"));
}

TEST_CASE("solve --from FILE: an exported distribution, a policy switched at 0, another scenario",
          "[cli][solve][transient]") {
  const TempDirectory dir;
  const std::string exported = (dir.path() / "long-run.csv").string();
  const json steady = solve_json({"--levels", "3,3,2,1,1,1", "--export", exported});
  // The exported long run of another policy: at 0 the level distribution is that policy's, and
  // under the file's own policy it moves to the file's long run.
  const json switched = solve_json({"--from", exported, "--times", "0,80"});
  CHECK(switched.at("from") == exported);
  for (std::size_t level = 0; level <= 5; ++level) {
    CHECK_THAT(
        switched.at("times")[0].at("level_probabilities")[level].get<double>(),
        Catch::Matchers::WithinAbs(steady.at("level_probabilities")[level].get<double>(), 1e-12));
    CHECK_THAT(
        switched.at("times")[1].at("level_probabilities")[level].get<double>(),
        Catch::Matchers::WithinAbs(switched.at("level_probabilities")[level].get<double>(), 1e-8));
  }
  // The same switch written as a policy file: the same curve.
  const std::string policy =
      dir.write("old-policy.yaml", "policy:\n  levels: [3, 3, 2, 1, 1, 1]\n");
  const json by_policy = solve_json({"--from", policy, "--times", "0,80"});
  CHECK_THAT(by_policy.at("times")[0].at("mean_in_system").get<double>(),
             Catch::Matchers::WithinRel(switched.at("times")[0].at("mean_in_system").get<double>(),
                                        1e-11));
  // A file over other states is refused naming the dimension.
  std::string bigger = dir.write("bigger.yaml", "");
  {
    std::ifstream in(shipped("paper-example-1.yaml"));
    std::stringstream text;
    text << in.rdbuf();
    std::string yaml = text.str();
    yaml.replace(yaml.find("capacity: 5"), 11, "capacity: 6");
    bigger = dir.write("bigger.yaml", yaml);
  }
  check_refused(
      crawlq({"solve", shipped("paper-example-1.yaml"), "--from", bigger, "--times", "1"}),
      {"--from " + bigger, "capacity 6 where the scenario has 5"});
  check_refused(crawlq({"solve", bigger, "--from", exported, "--times", "1"}),
                {"--from " + exported, "capacity 5 where the scenario has 6"});
  const std::string halved = dir.write("halved.csv", "level,arrival_phase,probability\n0,0,0.5\n");
  check_refused(
      crawlq({"solve", shipped("paper-example-1.yaml"), "--from", halved, "--times", "1"}),
      {halved, "sum to 0.5, not 1"});
}

TEST_CASE("solve --times --plot: the curves beside their long-run levels, drawn by gnuplot",
          "[cli][solve][transient][plot]") {
  const TempDirectory dir;
  const std::string svg = (dir.path() / "outage.svg").string();
  const ProcessResult run = crawlq({"solve", shipped("paper-example-1.yaml"), "--from",
                                    "stationary", "--outage", "2", "--until", "6", "--plot", svg});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.out, Catch::Contains("figure written to " + svg));
  const std::string script = read_text((dir.path() / "outage.gp").string());
  CHECK_THAT(script, Catch::Contains("the indexer stopped during [0, 2)") &&
                         Catch::Contains("lost at the long run's rate") &&
                         Catch::Contains("pages since the start (expected)"));
  CHECK_THAT(read_text(svg), Catch::Contains("<svg"));
  check_refused(crawlq({"solve", shipped("paper-example-1.yaml"), "--plot", svg}),
                {"--plot " + svg, "give --times or --until"});
}

TEST_CASE("solve --times: bad times, starts and outages exit 2 naming the flag and value",
          "[cli][solve][transient]") {
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases{
      {{"--times", "3,1"}, {"--times", "increasing order"}},
      {{"--times", "-1"}, {"--times", "-1"}},
      {{"--times", "1,nan"}, {"--times"}},
      {{"--times", "1", "--outage", "-2"}, {"--outage", "-2"}},
      {{"--times", "1", "--from", "half"},
       {"--from half", "not one of empty, full, stationary and no such file"}},
      {{"--outage", "1"}, {"--times", "give the times"}},
      {{"--from", "full"}, {"--times", "give the times"}},
      {{"--points", "5"}, {"--points", "--until"}},
      {{"--until", "0"}, {"--until 0", "above 0"}},
      {{"--until", "5", "--times", "1"}, {"--times", "--until"}},
      {{"--drain-to", "6"}, {"--drain-to", "6", "from 0 to the capacity, 5"}},
      {{"--drain-to", "-1"}, {"--drain-to", "-1"}},
  };
  for (const auto& [args, fragments] : cases) {
    std::vector<std::string> argv{"solve", shipped("paper-example-1.yaml")};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("--json");
    const ProcessResult run = crawlq(argv);
    INFO(report(run));
    check_refused(run, fragments);
  }
}

TEST_CASE("solve --times prints a table of the transient in a terminal",
          "[cli][solve][transient]") {
  const ProcessResult run =
      crawlq({"solve", shipped("paper-example-1.yaml"), "--times", "1,4", "--outage", "1"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.out, Catch::Contains("over time from empty, the indexer stopped during [0, 1)") &&
                          Catch::Contains("cost so far"));
}

}  // namespace crawlq::cli_test
