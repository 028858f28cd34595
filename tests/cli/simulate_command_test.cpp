// `crawlq simulate`: the keys of interface.md (those of `solve` as {mean, half_width}, plus events,
// replications, seed, seconds), agreement with `solve` on the measures of criterion (2), the
// same numbers for the same seed on any thread count, the policy flags and refused input. Runs are
// short (20,000 time units, ~43,000 pages per replication on paper-example-1) to keep the suite
// fast; the coverage of the intervals is studied in tests/crosscheck/coverage_study_test.cpp.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

const std::vector<std::string> kShortRun{"--seed", "5",         "--replications",
                                         "10",     "--horizon", "20000"};

// `crawlq COMMAND FILE args... --json`, requiring exit 0; stdout's JSON.
json run_json(const std::string& command, const std::string& file, std::vector<std::string> args) {
  args.insert(args.begin(), {command, file});
  args.push_back("--json");
  const ProcessResult run = crawlq(args);
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK(run.err.empty());
  return json_of(run);
}

json simulate_json(const std::string& file, std::vector<std::string> args) {
  return run_json("simulate", file, std::move(args));
}

json solve_json(const std::string& file, std::vector<std::string> args = {}) {
  return run_json("solve", file, std::move(args));
}

// {"mean": m, "half_width": h} with finite m and finite h >= 0.
void check_interval(const json& i, const std::string& key) {
  INFO(key << ": " << i.dump());
  REQUIRE(i.is_object());
  REQUIRE(i.contains("mean"));
  REQUIRE(i.contains("half_width"));
  REQUIRE(i.at("mean").is_number());
  REQUIRE(i.at("half_width").is_number());
  CHECK(std::isfinite(i.at("mean").get<double>()));
  CHECK(std::isfinite(i.at("half_width").get<double>()));
  CHECK(i.at("half_width").get<double>() >= 0);
}

double mean_of(const json& j, const std::string& key) { return j.at(key).at("mean").get<double>(); }
double half_width_of(const json& j, const std::string& key) {
  return j.at(key).at("half_width").get<double>();
}

// Means of a list of intervals.
std::vector<double> means_of(const json& list) {
  std::vector<double> means;
  for (const auto& i : list) means.push_back(i.at("mean").get<double>());
  return means;
}

// `solve`'s numbers that describe the solver, not the system: simulate has none of them.
const std::set<std::string> kSolverKeys{"method",          "states",        "residual",
                                        "iterations",      "seconds",       "seconds_stationary",
                                        "seconds_sojourn", "states_solved", "lumping"};

// The exact value within `widths` half-widths of the simulated mean (and the interval not empty).
void check_covers(const json& simulated, const json& exact, const std::string& key, double widths) {
  const double mean = mean_of(simulated, key), half_width = half_width_of(simulated, key);
  const double value = exact.at(key).get<double>();
  INFO(key << ": exact " << value << ", simulated " << mean << " +- " << half_width << " (off by "
           << (mean - value) / half_width << " half-widths)");
  CHECK(half_width > 0);
  CHECK(std::abs(mean - value) <= widths * half_width);
}

TEST_CASE("simulate --json: the keys of solve as {mean, half_width}, plus the run's numbers",
          "[cli][simulate]") {
  TempDirectory dir;
  const std::string file = scenario_file(
      dir, GENERATE("paper-example-1.yaml", "teaching-two-robots.yaml", "three-modes.yaml"));
  INFO(file);
  const int capacity = read_capacity(file);
  const json exact = solve_json(file);
  const int modes = static_cast<int>(exact.at("mode_probabilities").size());
  const json j = simulate_json(file, {"--seed", "3", "--replications", "4", "--horizon", "2000"});
  INFO(j.dump());

  // interface.md's keys of `solve`, method, states and residual aside.
  for (const auto& key : kScalarMeasures) check_interval(j.at(key), key);
  REQUIRE(j.at("level_probabilities").is_array());
  REQUIRE(j.at("mode_probabilities").is_array());
  CHECK(j.at("level_probabilities").size() == static_cast<std::size_t>(capacity + 1));
  CHECK(j.at("mode_probabilities").size() == static_cast<std::size_t>(modes));
  for (const auto& key : kListMeasures)
    for (const auto& i : j.at(key)) check_interval(i, key);
  REQUIRE(j.contains("policy"));
  CHECK(j.at("policy") == exact.at("policy"));
  for (const char* key : {"method", "states", "residual"}) CHECK_FALSE(j.contains(key));

  // The run itself, as plain numbers.
  for (const char* key : {"events", "replications", "seed", "seconds"}) {
    INFO("key " << key);
    REQUIRE(j.contains(key));
    CHECK(j.at(key).is_number());
  }
  CHECK(j.at("events").is_number_integer());
  CHECK(j.at("events").get<double>() > 0);
  CHECK(j.at("replications") == 4);
  CHECK(j.at("seed") == 3);
  CHECK(j.at("seconds").get<double>() >= 0);

  // What holds replication by replication, so for the means too.
  const std::vector<double> by_level = means_of(j.at("level_probabilities"));
  const std::vector<double> by_mode = means_of(j.at("mode_probabilities"));
  double level_sum = 0, mode_sum = 0, robots = 0;
  for (double p : by_level) level_sum += p;
  for (std::size_t r = 0; r < by_mode.size(); ++r) {
    mode_sum += by_mode[r];
    robots += static_cast<double>(r + 1) * by_mode[r];
  }
  CHECK(level_sum == Approx(1.0).margin(1e-9));
  CHECK(mode_sum == Approx(1.0).margin(1e-9));
  CHECK(robots == Approx(mean_of(j, "mean_active_robots")).margin(1e-9));
  CHECK(mean_of(j, "p_starvation") == Approx(by_level[0]).margin(1e-12));
  // Pages inside the system at the window's ends make the three fates miss 1 by a little.
  CHECK(mean_of(j, "p_loss") + mean_of(j, "p_obsolete") + mean_of(j, "p_served") ==
        Approx(1.0).margin(0.01));
}

// interface.md: simulate has "the keys of solve"; solve's own keys beyond the table (measures the
// app added, such as mean_in_system) count too, except those that describe the solver.
TEST_CASE("simulate --json: every measure key that solve --json prints", "[cli][simulate]") {
  const std::string file = shipped("paper-example-1.yaml");
  const json exact = solve_json(file);
  const json j = simulate_json(file, {"--replications", "2", "--horizon", "1000"});
  for (const auto& [key, value] : exact.items()) {
    if (kSolverKeys.count(key) || key == "policy") continue;
    INFO("solve --json has '" << key << "' = " << value.dump() << "; simulate --json does not");
    CHECK(j.contains(key));
  }
}

TEST_CASE("simulate: the exact values of solve lie within 4 half-widths of the simulated means",
          "[cli][simulate]") {
  const std::string file = shipped("paper-example-1.yaml");
  const json exact = solve_json(file);
  const json simulated = simulate_json(file, kShortRun);
  INFO(simulated.dump());
  // 4 half-widths are 9 standard errors of t with 9 degrees of freedom: no false alarm to speak of.
  for (const char* key : {"p_loss", "p_served", "cost", "mean_sojourn_served"})
    check_covers(simulated, exact, key, 4);
}

TEST_CASE("simulate: the same seed gives the same JSON on 1 and 2 threads", "[cli][simulate]") {
  const std::string file = shipped("paper-example-1.yaml");
  std::vector<std::string> one = kShortRun, two = kShortRun;
  one.insert(one.end(), {"--threads", "1"});
  two.insert(two.end(), {"--threads", "2"});
  const json a = without_timing(simulate_json(file, one));
  const json b = without_timing(simulate_json(file, two));
  INFO("--threads 1: " << a.dump() << "\n--threads 2: " << b.dump());
  CHECK(a == b);
}

TEST_CASE("simulate: a different seed gives different numbers", "[cli][simulate]") {
  const std::string file = shipped("paper-example-1.yaml");
  const json a = simulate_json(file, {"--seed", "5", "--replications", "4", "--horizon", "2000"});
  const json b = simulate_json(file, {"--seed", "6", "--replications", "4", "--horizon", "2000"});
  CHECK(b.at("seed") == 6);
  for (const char* key : {"lambda", "p_loss", "cost", "mean_sojourn_served"}) {
    INFO(key << ": seed 5 " << a.at(key).dump() << ", seed 6 " << b.at(key).dump());
    CHECK(mean_of(a, key) != mean_of(b, key));
    CHECK(half_width_of(a, key) != half_width_of(b, key));
  }
  CHECK(means_of(a.at("level_probabilities")) != means_of(b.at("level_probabilities")));
}

TEST_CASE("simulate: --thresholds and --levels override the file's policy", "[cli][simulate]") {
  const std::string file = shipped("paper-example-1.yaml");
  const json from_file = simulate_json(file, kShortRun);
  CHECK(from_file.at("policy").at("levels").get<std::vector<int>>() ==
        std::vector<int>{3, 3, 3, 1, 1, 1});

  SECTION("--thresholds") {
    std::vector<std::string> args = kShortRun;
    args.insert(args.end(), {"--thresholds", "0,1,2"});
    const json j = simulate_json(file, args);
    const json exact = solve_json(file, {"--thresholds", "0,1,2"});
    CHECK(j.at("policy") == exact.at("policy"));
    CHECK(j.at("policy").at("levels").get<std::vector<int>>() ==
          std::vector<int>{4, 3, 2, 1, 1, 1});
    for (const char* key : {"p_loss", "p_served", "cost", "mean_sojourn_served"})
      check_covers(j, exact, key, 4);
    // The file's policy is 10 cost units cheaper: far outside either interval.
    CHECK(std::abs(mean_of(j, "cost") - mean_of(from_file, "cost")) >
          4 * (half_width_of(j, "cost") + half_width_of(from_file, "cost")));
  }
  SECTION("--levels, a map outside the threshold class") {
    std::vector<std::string> args = kShortRun;
    args.insert(args.end(), {"--levels", "1,4,1,4,1,4"});
    const json j = simulate_json(file, args);
    const json exact = solve_json(file, {"--levels", "1,4,1,4,1,4"});
    CHECK(j.at("policy") == exact.at("policy"));
    CHECK(j.at("policy").at("levels").get<std::vector<int>>() ==
          std::vector<int>{1, 4, 1, 4, 1, 4});
    CHECK_FALSE(j.at("policy").contains("thresholds"));
    // Two and three robots are never active under this map.
    const json& by_mode = j.at("mode_probabilities");
    REQUIRE(by_mode.size() == 4);
    for (const int r : {1, 2}) {
      INFO("mode " << r + 1 << ": " << by_mode[r].dump());
      CHECK(by_mode[r].at("mean").get<double>() == 0);
      CHECK(by_mode[r].at("half_width").get<double>() == 0);
    }
    for (const char* key : {"p_loss", "p_served", "cost", "mean_sojourn_served"})
      check_covers(j, exact, key, 4);
  }
}

TEST_CASE("simulate: a broken scenario file is refused naming the file, the key and the value",
          "[cli][simulate][bad-input]") {
  TempDirectory dir;
  // The unbroken file simulates: the failure below is the broken rule's.
  REQUIRE(crawlq({"simulate", dir.write("good.yaml", kThreeModes), "--replications", "2",
                  "--horizon", "10", "--json"})
              .exit_status == 0);
  const auto [name, from, to, fragments] =
      GENERATE(table<std::string, std::string, std::string, std::vector<std::string>>({
          {"negative-rate.yaml",
           "[[1, 1], [1, 0.5]]",
           "[[1, 1], [-0.01, 0.5]]",
           {"arrivals.modes[1].D[1] row 1", "-0.01"}},
          {"beta-sum.yaml", "beta: [0.4, 0.6]", "beta: [0.4, 0.5]", {"service.beta", "0.9"}},
          {"threshold-order.yaml",
           "thresholds: [0, 2]",
           "thresholds: [2, 0]",
           {"policy.thresholds[1]", "0"}},
          {"unknown-key.yaml",
           "name: cli-three-modes",
           "name: cli-three-modes\ncolour: red",
           {"colour"}},
      }));
  const std::string file = dir.write(name, replace_once(kThreeModes, from, to));
  std::vector<std::string> expected = fragments;
  expected.push_back(name);
  for (const bool as_json : {true, false}) {
    INFO(name << (as_json ? " --json" : ""));
    std::vector<std::string> args{"simulate", file, "--replications", "2", "--horizon", "10"};
    if (as_json) args.push_back("--json");
    check_refused(crawlq(args), expected);
  }
}

TEST_CASE("simulate: a missing file is refused naming it", "[cli][simulate][bad-input]") {
  TempDirectory dir;
  const std::string file = (dir.path() / "no-such-scenario.yaml").string();
  check_refused(crawlq({"simulate", file, "--json"}), {file});
}

TEST_CASE("simulate: bad flags are refused naming the flag and the value",
          "[cli][simulate][bad-input]") {
  const auto [args, fragments] =
      GENERATE(table<std::vector<std::string>, std::vector<std::string>>({
          {{"--replications", "1"}, {"--replications", "1"}},
          {{"--replications", "0"}, {"--replications", "0"}},
          {{"--horizon", "-5"}, {"--horizon", "-5"}},
          {{"--horizon", "abc"}, {"--horizon", "abc"}},
          {{"--threads", "-1"}, {"--threads", "-1"}},
          {{"--bogus"}, {"--bogus"}},
          {{"--thresholds", "3,2,2"}, {"--thresholds", "2"}},
          {{"--levels", "3,3,1"}, {"--levels", "3"}},
          {{"--thresholds", "-1,2,2", "--levels", "3,3,3,1,1,1"}, {"--thresholds", "--levels"}},
      }));
  std::vector<std::string> argv{"simulate", shipped("paper-example-1.yaml")};
  argv.insert(argv.end(), args.begin(), args.end());
  // A short run should one of them be accepted by mistake (--horizon may be given only once).
  if (std::find(args.begin(), args.end(), "--horizon") == args.end())
    argv.insert(argv.end(), {"--horizon", "10"});
  argv.push_back("--json");
  check_refused(crawlq(argv), fragments);
}

// interface.md: exit status 2 on bad input. A length of time that is not a finite number, or a
// negative warm-up, is bad input: it must neither run forever nor be replaced silently by the
// default (the JSON would then report a warm-up or horizon the user did not ask for).
TEST_CASE("simulate: a horizon or warm-up that is not a finite non-negative number is refused",
          "[cli][simulate][bad-input]") {
  const auto [args, flag] = GENERATE(table<std::vector<std::string>, std::string>({
      {{"--horizon", "inf"}, "--horizon"},
      {{"--horizon", "nan"}, "--horizon"},
      {{"--horizon", "10", "--warmup", "-5"}, "--warmup"},
      {{"--horizon", "10", "--warmup", "nan"}, "--warmup"},
      {{"--horizon", "10", "--warmup", "inf"}, "--warmup"},
  }));
  std::vector<std::string> argv{"simulate", shipped("paper-example-1.yaml"), "--replications", "2"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--json");
  // A run that would not stop is killed after 3 s; a bounded one takes milliseconds here.
  check_refused(crawlq(argv, std::chrono::seconds(3)), {flag});
}

// --seed is unsigned; a negative value must not wrap round to 2^64 - 1.
TEST_CASE("simulate: a negative --seed is refused", "[cli][simulate][bad-input]") {
  check_refused(crawlq({"simulate", shipped("paper-example-1.yaml"), "--horizon", "10", "--seed",
                        "-1", "--json"}),
                {"--seed", "-1"});
}

TEST_CASE("simulate --help: the run's flags, exit 0", "[cli][simulate][usage]") {
  const ProcessResult run = crawlq({"simulate", "--help"});
  INFO(report(run));
  CHECK(run.exit_status == 0);
  CHECK(run.err.empty());
  CHECK_THAT(run.out, Catch::Contains("Usage", Catch::CaseSensitive::No) &&
                          Catch::Contains("simulate") && Catch::Contains("FILE"));
  for (const char* flag : {"--seed", "--replications", "--horizon", "--warmup", "--threads",
                           "--thresholds", "--levels", "--json"}) {
    INFO("flag " << flag);
    CHECK_THAT(run.out, Catch::Contains(flag));
  }
}

TEST_CASE("simulate without --json: a readable table with intervals", "[cli][simulate][readable]") {
  const ProcessResult run = crawlq({"simulate", shipped("paper-example-1.yaml"), "--seed", "2",
                                    "--replications", "3", "--horizon", "500"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK(run.err.empty());
  CHECK_FALSE(json::accept(run.out));
  for (const char* figure : {"paper-example-1", "seed 2", "3 replications", "P_loss", "+-"}) {
    INFO("figure " << figure);
    CHECK_THAT(run.out, Catch::Contains(figure));
  }
}

TEST_CASE(
    "simulate: without --replications the run goes on until the headline measures are known to 1%",
    "[cli][simulate][precision]") {
  const json j = simulate_json(shipped("paper-example-1.yaml"), {"--seed", "3"});
  CHECK(j.at("precision").get<double>() == 0.01);
  CHECK(j.at("precise").get<bool>());
  for (const char* key : {"p_loss", "p_served", "cost", "mean_sojourn_served"}) {
    INFO(key << ": " << j.at(key).dump());
    CHECK(half_width_of(j, key) <= 0.01 * std::abs(mean_of(j, key)));
  }
  const json exact = solve_json(shipped("paper-example-1.yaml"));
  for (const char* key : {"p_loss", "p_served", "cost", "mean_sojourn_served"})
    check_covers(j, exact, key, 4);
}

TEST_CASE("simulate: --replications alone fixes the run, and --precision with it still goes on",
          "[cli][simulate][precision]") {
  const json fixed =
      simulate_json(shipped("paper-example-1.yaml"), {"--replications", "3", "--horizon", "1000"});
  CHECK(fixed.at("replications").get<int>() == 3);
  CHECK_FALSE(fixed.contains("precision"));
  const json sequential =
      simulate_json(shipped("paper-example-1.yaml"),
                    {"--replications", "3", "--horizon", "1000", "--precision", "0.05"});
  CHECK(sequential.at("replications").get<int>() > 3);
  CHECK(sequential.at("precision").get<double>() == 0.05);
}

}  // namespace
}  // namespace crawlq::cli_test

namespace crawlq::cli_test {
namespace {

TEST_CASE("simulate --trace --plot: the sample path drawn as SVG, and --plot alone is refused",
          "[cli][simulate][plot]") {
  TempDirectory dir;
  const std::string csv = (dir.path() / "path.csv").string(),
                    svg = (dir.path() / "path.svg").string();
  const ProcessResult run = crawlq({"simulate", shipped("paper-example-1.yaml"), "--trace", csv,
                                    "--horizon", "20", "--plot", svg, "--seed", "2"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(read_text(svg), Catch::Contains("<svg") && Catch::Contains("active robots"));
  const ProcessResult alone = crawlq({"simulate", shipped("paper-example-1.yaml"), "--plot", svg});
  CHECK(alone.exit_status == 2);
  CHECK(alone.out.empty());
  CHECK_THAT(alone.err, Catch::Contains("--trace"));
}

}  // namespace
}  // namespace crawlq::cli_test

namespace crawlq::cli_test {
namespace {

// The CSV's data lines (its header left out), and how many of them name `event`.
struct TraceLines {
  long rows = 0, named = 0;
};
TraceLines trace_lines(const std::string& csv, const std::string& event) {
  const std::vector<std::string> lines = lines_of(read_text(csv));
  REQUIRE(lines.size() > 1);
  CHECK(lines.front() == "time,event,level,robots,lost,expired");
  TraceLines counted;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    ++counted.rows;
    const auto first = lines[i].find(',');
    counted.named += lines[i].substr(first + 1, lines[i].find(',', first + 1) - first - 1) == event;
  }
  return counted;
}

TEST_CASE("simulate --trace --json: the path echoed, rows and events counted in the CSV it wrote",
          "[cli][simulate][trace]") {
  TempDirectory dir;
  // `events` counts every move of the robots' phase process, service completion and expiry
  // (sim/simulator.hpp); the CSV has a row for each batch, service and expiry, and for a move that
  // changes the robots only. With one phase per mode (Poisson), every move is a batch: one row per
  // event.
  const std::string poisson = scenario_file(dir, "level-map-wins.yaml");
  const std::string csv = (dir.path() / "poisson.csv").string();
  const ProcessResult run = crawlq({"simulate", poisson, "--levels", "2,2,1,1", "--trace", csv,
                                    "--horizon", "300", "--seed", "11", "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json j = json_of(run);
  CHECK(j.at("trace") == csv);
  CHECK(j.at("horizon").get<double>() == 300);
  CHECK(j.at("seed").get<std::uint64_t>() == 11);
  const TraceLines lines = trace_lines(csv, "robots");
  CHECK(lines.rows > 300);  // pages at rate 0.75 or 1, then served or expired: hundreds of rows
  CHECK(lines.named == 0);  // no "robots" row either: every row is an event, every event a row
  CHECK(j.at("rows").get<long>() == lines.rows);
  CHECK(j.at("events").get<long>() == lines.rows);

  // Two phases a mode (paper-example-1): moves that neither emit a batch nor change the robots are
  // events without a row, so only rows is the line count.
  const std::string bmap_csv = (dir.path() / "bmap.csv").string();
  const ProcessResult bmap = crawlq({"simulate", shipped("paper-example-1.yaml"), "--trace",
                                     bmap_csv, "--horizon", "40", "--seed", "3", "--json"});
  INFO(report(bmap));
  REQUIRE(bmap.exit_status == 0);
  const json b = json_of(bmap);
  CHECK(b.at("trace") == bmap_csv);
  CHECK(b.at("horizon").get<double>() == 40);
  CHECK(b.at("seed").get<std::uint64_t>() == 3);
  const long bmap_rows = trace_lines(bmap_csv, "robots").rows;
  CHECK(b.at("rows").get<long>() == bmap_rows);
  CHECK(b.at("events").get<long>() > bmap_rows);  // a bound only: the hidden moves leave no trace
}

}  // namespace
}  // namespace crawlq::cli_test

TEST_CASE("simulate: the served pages' sojourn histogram is in the table, not only in --json",
          "[cli][simulate]") {
  const crawlq::cli_test::ProcessResult run =
      crawlq::cli_test::crawlq({"simulate", crawlq::cli_test::shipped("paper-example-1.yaml"),
                                "--replications", "3", "--horizon", "5000"});
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.out, Catch::Matchers::Contains(
                          "sojourn of served pages (time units): density per unit time"));
  std::istringstream lines(run.out);
  std::size_t bars = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.find("###") != std::string::npos) ++bars;
  CHECK(bars >= 5);
}

TEST_CASE("simulate: --horizon's default is told alike in --help and in the schema",
          "[cli][simulate][usage]") {
  const crawlq::cli_test::ProcessResult help = crawlq::cli_test::crawlq({"simulate", "--help"});
  const crawlq::cli_test::ProcessResult schema = crawlq::cli_test::crawlq({"schema", "--json"});
  REQUIRE(help.exit_status == 0);
  REQUIRE(schema.exit_status == 0);
  // The default is measured at the policy's own pace (sim/horizon.hpp), not the busiest mode's.
  CHECK_THAT(help.out, Catch::Matchers::Contains("at the pace the policy keeps"));
  CHECK_THAT(help.out, !Catch::Matchers::Contains("busiest mode"));
  const nlohmann::json schema_json = crawlq::cli_test::json_of(schema);
  for (const auto& field : schema_json.at("simulate"))
    if (field.at("key") == "horizon")
      CHECK_THAT(field.at("help").get<std::string>(),
                 Catch::Matchers::Contains("at the pace the policy keeps"));
}
