// `crawlq solve`: the keys of interface.md, the identities its numbers must satisfy, the policy and
// method flags, sojourn times, transforms and the state export.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include "tests/cli/cli_support.hpp"
#include "tests/support/scoped_environment.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

double sum_of(const json& list) {
  double s = 0;
  for (const auto& v : list) s += v.get<double>();
  return s;
}

// Runs `solve FILE args... --json`, requiring exit 0, and returns stdout's JSON.
json solve_json(const std::string& file, std::vector<std::string> args = {}) {
  args.insert(args.begin(), {"solve", file});
  args.push_back("--json");
  const ProcessResult run = crawlq(args);
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  return json_of(run);
}

// Every key of interface.md's `solve --json`, and what the mathematics promises of the values.
void check_solve_json(const json& j, int capacity, int modes) {
  INFO(j.dump());
  for (const char* key :
       {"policy", "lambda", "p_loss", "p_obsolete", "p_served", "p_starvation",
        "mean_active_robots", "mean_sojourn", "mean_sojourn_served", "mean_sojourn_obsolete",
        "cost", "level_probabilities", "mode_probabilities", "method", "states", "residual"}) {
    INFO("key " << key);
    REQUIRE(j.contains(key));
  }
  for (const auto& key : kScalarMeasures) {
    INFO("key " << key);
    REQUIRE(j.at(key).is_number());
    CHECK(std::isfinite(j.at(key).get<double>()));
  }
  REQUIRE(j.at("policy").is_object());
  REQUIRE(j.at("policy").contains("levels"));
  const json& levels = j.at("policy").at("levels");
  REQUIRE(levels.size() == static_cast<std::size_t>(capacity + 1));
  REQUIRE(j.at("method").is_string());
  CHECK(std::set<std::string>{"block-recursion", "qbd", "sparse-lu"}.count(
            j.at("method").get<std::string>()) == 1);
  REQUIRE(j.at("states").is_number_integer());
  CHECK(j.at("states").get<int>() > 0);
  REQUIRE(j.at("residual").is_number());
  CHECK(j.at("residual").get<double>() >= 0);
  CHECK(j.at("residual").get<double>() < 1e-10);

  const json& by_level = j.at("level_probabilities");
  const json& by_mode = j.at("mode_probabilities");
  REQUIRE(by_level.size() == static_cast<std::size_t>(capacity + 1));
  REQUIRE(by_mode.size() == static_cast<std::size_t>(modes));
  for (const auto& p : by_level) CHECK((p.get<double>() >= 0 && p.get<double>() <= 1));
  for (const auto& p : by_mode) CHECK((p.get<double>() >= 0 && p.get<double>() <= 1));
  CHECK(sum_of(by_level) == Approx(1.0).margin(1e-9));
  CHECK(sum_of(by_mode) == Approx(1.0).margin(1e-9));

  // A mode's probability is that of the levels the policy gives it; robots on average follow.
  std::vector<double> mode_from_levels(modes, 0.0);
  for (int i = 0; i <= capacity; ++i) {
    const int r = levels[i].get<int>();
    REQUIRE((r >= 1 && r <= modes));
    mode_from_levels[r - 1] += by_level[i].get<double>();
  }
  double mean_robots = 0;
  for (int r = 1; r <= modes; ++r) {
    CHECK(by_mode[r - 1].get<double>() == Approx(mode_from_levels[r - 1]).margin(1e-9));
    mean_robots += r * by_mode[r - 1].get<double>();
  }
  CHECK(j.at("mean_active_robots").get<double>() == Approx(mean_robots).epsilon(1e-9));
  // Starvation is an empty system.
  CHECK(j.at("p_starvation").get<double>() == Approx(by_level[0].get<double>()).margin(1e-12));

  const double p_loss = j.at("p_loss"), p_obsolete = j.at("p_obsolete"),
               p_served = j.at("p_served");
  for (double p : {p_loss, p_obsolete, p_served}) CHECK((p >= 0 && p <= 1));
  CHECK(p_loss + p_obsolete + p_served == Approx(1.0).margin(1e-9));
  CHECK(j.at("lambda").get<double>() > 0);

  // mean_sojourn is over accepted pages, the mixture of served and obsolete ones.
  const double mean = j.at("mean_sojourn"), served = j.at("mean_sojourn_served"),
               obsolete = j.at("mean_sojourn_obsolete");
  CHECK(mean >= 0);
  CHECK(served >= 0);
  CHECK(obsolete >= 0);
  CHECK(
      mean ==
      Approx((p_served * served + p_obsolete * obsolete) / (p_served + p_obsolete)).epsilon(1e-9));
}

// Criterion (2) from the JSON's own measures and the file's costs.
double cost_from(const json& j, const FileCosts& c) {
  return j.at("lambda").get<double>() * (c.loss * j.at("p_loss").get<double>() +
                                         c.obsolescence * j.at("p_obsolete").get<double>()) +
         c.sojourn * j.at("mean_sojourn_served").get<double>() +
         c.robot * j.at("mean_active_robots").get<double>() +
         c.starvation * j.at("p_starvation").get<double>() +
         c.holding * j.at("mean_in_system").get<double>();
}

json describe_json(const std::string& file) {
  const ProcessResult run = crawlq({"describe", file, "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  return json_of(run);
}

TEST_CASE("solve --json on every shipped scenario: exit 0, JSON only, the keys of interface.md",
          "[cli][solve]") {
  const std::string name = GENERATE(from_range(kShippedScenarios));
  const std::string file = shipped(name);
  INFO(file);
  const ProcessResult run = crawlq({"solve", file, "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json j = json_of(run);
  REQUIRE(j.is_object());
  const json d = describe_json(file);
  const int capacity = read_capacity(file);
  check_solve_json(j, capacity, static_cast<int>(d.at("modes").size()));
  CHECK(j.at("states") == d.at("states"));
  // The file's policy is the one solved.
  const YAML::Node policy = YAML::LoadFile(file)["policy"];
  if (policy["thresholds"]) {
    REQUIRE(j.at("policy").contains("thresholds"));
    CHECK(j.at("policy").at("thresholds").get<std::vector<int>>() ==
          policy["thresholds"].as<std::vector<int>>());
  }
  // Only repairs may reach stderr, and only for a file that asks for them.
  if (!YAML::LoadFile(file)["repair-diagonal"]) CHECK(run.err.empty());
}

TEST_CASE("solve --json: cost is criterion (2) recomputed from the measures and the file's costs",
          "[cli][solve]") {
  TempDirectory dir;
  const auto [name, args] = GENERATE(table<std::string, std::vector<std::string>>(
      {{"paper-example-1.yaml", {}},
       {"paper-example-1.yaml", {"--levels", "4,1,2,4,3,1"}},
       {"paper-real-data.yaml", {}},
       {"teaching-two-robots.yaml", {}},
       {"teaching-two-robots.yaml", {"--thresholds", "4"}},
       {"three-modes.yaml", {}},
       {"three-modes.yaml", {"--thresholds", "-1,3"}}}));
  const std::string file = scenario_file(dir, name);
  INFO(file);
  const json j = solve_json(file, args);
  CHECK(j.at("cost").get<double>() == Approx(cost_from(j, read_costs(file))).epsilon(1e-9));
  // A holding cost per page in the system adds c_hold L to (2) and changes nothing else.
  const std::string text = read_text(file);
  const auto costs_at = text.find("costs:");
  REQUIRE(costs_at != std::string::npos);
  const auto line_end = text.find('}', costs_at);  // the shipped files write costs on one line
  const std::string held = dir.write(
      "held-" + name, text.substr(0, line_end) + ", holding: 3.5" + text.substr(line_end));
  const json h = solve_json(held, args);
  CHECK(h.at("cost").get<double>() == Approx(cost_from(h, read_costs(held))).epsilon(1e-9));
  CHECK(h.at("mean_in_system") == j.at("mean_in_system"));
}

TEST_CASE("solve --json on every arrival kind and admission rule: the same promises",
          "[cli][solve]") {
  TempDirectory dir;
  const auto [name, arrivals, admission] = GENERATE(table<std::string, std::string, std::string>({
      {"per-mode-reject.yaml",
       "{kind: per-mode, modes: [{D: [[[-2]], [[1]], [[1]]]}, {D: [[[-3]], [[1]], [[1]], [[1]]]}]}",
       "reject-batch"},
      {"independent.yaml",
       "{kind: independent, robots: [{D: [[[-1]], [[1]]]}, {D: [[[-1]], [[0.5]], [[0.5]]]}]}",
       "partial"},
      {"thinning.yaml",
       "{kind: thinning, base: {D: [[[-1.5, 0.5], [0.5, -1.5]], [[0.5, 0.5], [0.5, 0.5]]]}, "
       "accept: [0.5, 1]}",
       "partial"},
      {"marked.yaml",
       "{kind: marked, D0: [[-3, 0.5], [1, -3]], robots: [{D: [[[1, 0.5], [0.5, 0.5]]]}, "
       "{D: [[[0.5, 0], [0, 0.5]], [[0.25, 0.25], [0.25, 0.25]]]}]}",
       "reject-batch"},
      {"scaled.yaml", "{kind: scaled, base: {D: [[[-2]], [[1]], [[1]]]}, factors: [1, 1.5]}",
       "partial"},
  }));
  const std::string file = dir.write(
      name, "name: " + name + "\ncapacity: 3\nadmission: " + admission + "\narrivals: " + arrivals +
                "\nservice: {beta: [1], S: [[-2]]}\nobsolescence: {gamma: [1], Gamma: [[-0.5]]}\n"
                "costs: {loss: 1, obsolescence: 2, sojourn: 1, robot: 1, starvation: 5}\n"
                "policy: {thresholds: [1]}\n");
  INFO(read_text(file));
  const json j = solve_json(file);
  check_solve_json(j, 3, 2);
  CHECK(j.at("cost").get<double>() == Approx(cost_from(j, read_costs(file))).epsilon(1e-9));
  check_same_measures(j, solve_json(file, {"--method", "sparse-lu"}), 1e-9);
}

TEST_CASE("solve: paper-example-1 reproduces the optimum of Table 1, cost 63.54", "[cli][solve]") {
  const json j = solve_json(shipped("paper-example-1.yaml"));
  CHECK(j.at("policy").at("levels").get<std::vector<int>>() == std::vector<int>{3, 3, 3, 1, 1, 1});
  CHECK(j.at("cost").get<double>() == Approx(63.54).margin(0.005));
  CHECK(j.at("states").get<int>() == 126);
}

TEST_CASE("solve: an M/M/1/2 written as JSON gives the closed-form values", "[cli][solve]") {
  // lambda = 1, mu = 2: p_i proportional to 2^-i; a page is lost with p_2 = 1/7; Little gives the
  // mean sojourn L / (lambda (1 - p_2)) = (4/7) / (6/7) = 2/3.
  TempDirectory dir;
  const std::string file = dir.write(
      "mm12.json",
      R"({"name": "mm12", "capacity": 2, "arrivals": {"kind": "per-mode", "modes": [{"D": [[[-1]], [[1]]]}]},
          "service": {"beta": [1], "S": [[-2]]}, "costs": {"loss": 7}})");
  const json j = solve_json(file, {"--levels", "1,1,1"});
  check_solve_json(j, 2, 1);
  CHECK(j.at("level_probabilities")[0].get<double>() == Approx(4.0 / 7).epsilon(1e-12));
  CHECK(j.at("p_loss").get<double>() == Approx(1.0 / 7).epsilon(1e-12));
  CHECK(j.at("p_obsolete").get<double>() == Approx(0.0).margin(1e-15));
  CHECK(j.at("mean_sojourn").get<double>() == Approx(2.0 / 3).epsilon(1e-12));
  CHECK(j.at("cost").get<double>() == Approx(1.0).epsilon(1e-12));  // lambda * 7 * 1/7
}

TEST_CASE("solve: --thresholds -1,2,2 and --levels 3,3,3,1,1,1 give the same numbers",
          "[cli][solve]") {
  const std::string file = shipped("paper-example-1.yaml");
  const json by_thresholds = solve_json(file, {"--thresholds", "-1,2,2"});
  const json by_levels = solve_json(file, {"--levels", "3,3,3,1,1,1"});
  check_same_measures(by_thresholds, by_levels, 1e-12);
  CHECK(by_thresholds.at("policy").at("levels") == by_levels.at("policy").at("levels"));
  CHECK(by_levels.at("policy").at("levels").get<std::vector<int>>() ==
        std::vector<int>{3, 3, 3, 1, 1, 1});
  CHECK(by_levels.at("policy").at("thresholds").get<std::vector<int>>() ==
        std::vector<int>{-1, 2, 2});
}

TEST_CASE("solve: a policy flag overrides the file's policy", "[cli][solve]") {
  const std::string file = shipped("paper-example-1.yaml");
  const json from_file = solve_json(file);
  const json from_flag = solve_json(file, {"--thresholds", "0,1,2"});
  CHECK(from_flag.at("policy").at("levels").get<std::vector<int>>() ==
        std::vector<int>{4, 3, 2, 1, 1, 1});
  CHECK(from_flag.at("policy").at("thresholds").get<std::vector<int>>() ==
        std::vector<int>{0, 1, 2});
  CHECK(from_flag.at("cost").get<double>() != Approx(from_file.at("cost").get<double>()));
  // The same as a copy of the file whose policy is the flag's.
  TempDirectory dir;
  const std::string copy =
      dir.write("copy.yaml",
                replace_once(read_text(file), "thresholds: [-1, 2, 2]", "thresholds: [0, 1, 2]"));
  check_same_measures(from_flag, solve_json(copy), 1e-12);
  // A map outside the threshold class has levels only.
  const json map = solve_json(file, {"--levels", "1,4,1,4,1,4"});
  CHECK(map.at("policy").at("levels").get<std::vector<int>>() ==
        std::vector<int>{1, 4, 1, 4, 1, 4});
  CHECK_FALSE(map.at("policy").contains("thresholds"));
}

TEST_CASE("solve: --thresholds and --levels together are refused", "[cli][solve]") {
  const ProcessResult run = crawlq({"solve", shipped("paper-example-1.yaml"), "--thresholds",
                                    "-1,2,2", "--levels", "3,3,3,1,1,1", "--json"});
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains("--thresholds") && Catch::Contains("--levels"));
}

TEST_CASE("solve: policy flags out of the rules are refused naming the flag and the value",
          "[cli][solve]") {
  const auto [args, fragment] = GENERATE(table<std::vector<std::string>, std::string>({
      {{"--thresholds", "3,2,2"}, "2"},    // decreasing
      {{"--thresholds", "-1,2,9"}, "9"},   // beyond K = 5
      {{"--thresholds", "-2,2,2"}, "-2"},  // below -1
      {{"--thresholds", "1,2"}, "2"},      // N - 1 = 3 values needed
      {{"--levels", "3,3,1"}, "3"},        // K + 1 = 6 values needed
      {{"--levels", "3,3,3,1,1,5"}, "5"},  // 5 robots of 4
      {{"--levels", "3,3,3,1,1,0"}, "0"},  // no robot
      {{"--thresholds", "a,2,2"}, "a"},    // not a number
  }));
  std::vector<std::string> argv{"solve", shipped("paper-example-1.yaml")};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--json");
  const ProcessResult run = crawlq(argv);
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains(args[0]) && Catch::Contains(fragment));
}

TEST_CASE("solve: block-recursion and sparse-lu agree to 1e-9", "[cli][solve]") {
  TempDirectory dir;
  const std::string file =
      scenario_file(dir, GENERATE("paper-example-1.yaml", "paper-real-data.yaml",
                                  "teaching-two-robots.yaml", "three-modes.yaml"));
  INFO(file);
  const json recursion = solve_json(file, {"--method", "block-recursion"});
  const json lu = solve_json(file, {"--method", "sparse-lu"});
  CHECK(recursion.at("method") == "block-recursion");
  CHECK(lu.at("method") == "sparse-lu");
  check_same_measures(recursion, lu, 1e-9);
  CHECK(recursion.at("states") == lu.at("states"));
  CHECK(lu.at("residual").get<double>() < 1e-10);
}

TEST_CASE("solve: on single arrivals qbd agrees with block-recursion and sparse-lu",
          "[cli][solve]") {
  TempDirectory dir;
  const std::string file = dir.write("single.yaml", kSingleArrivals);
  const json qbd = solve_json(file, {"--method", "qbd"});
  CHECK(qbd.at("method") == "qbd");
  check_solve_json(qbd, 4, 2);
  check_same_measures(qbd, solve_json(file, {"--method", "block-recursion"}), 1e-9);
  check_same_measures(qbd, solve_json(file, {"--method", "sparse-lu"}), 1e-9);
}

TEST_CASE("solve: --method qbd on a batch model is refused, saying why", "[cli][solve]") {
  const std::string file = shipped("paper-example-1.yaml");
  const ProcessResult run = crawlq({"solve", file, "--method", "qbd", "--json"});
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains("paper-example-1.yaml") && Catch::Contains("qbd") &&
                          Catch::Contains("batch", Catch::CaseSensitive::No));
}

TEST_CASE("solve: an unknown --method is refused naming it", "[cli][solve]") {
  const ProcessResult run =
      crawlq({"solve", shipped("paper-example-1.yaml"), "--method", "nonsense", "--json"});
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains("nonsense") && Catch::Contains("--method"));
}

TEST_CASE("solve --sojourn --json: accepted, served and obsolete pages' sojourn times",
          "[cli][solve][sojourn]") {
  const std::string name = GENERATE(from_range(kShippedScenarios));
  const std::string file = shipped(name);
  INFO(file);
  const json j = solve_json(file, {"--sojourn"});
  REQUIRE(j.contains("sojourn"));
  const json& s = j.at("sojourn");
  const std::map<std::string, std::pair<double, double>> expected{
      // fate -> (probability, mean) from the top-level keys
      {"accepted", {1.0 - j.at("p_loss").get<double>(), j.at("mean_sojourn").get<double>()}},
      {"served", {j.at("p_served").get<double>(), j.at("mean_sojourn_served").get<double>()}},
      {"obsolete",
       {j.at("p_obsolete").get<double>(), j.at("mean_sojourn_obsolete").get<double>()}}};
  for (const auto& [fate, probability_and_mean] : expected) {
    INFO("fate " << fate << ": " << s.dump());
    REQUIRE(s.contains(fate));
    for (const char* key : {"probability", "mean", "sd", "median", "p90", "p99"}) {
      INFO("key " << key);
      REQUIRE(s.at(fate).contains(key));
      REQUIRE(s.at(fate).at(key).is_number());
    }
    const json& f = s.at(fate);
    CHECK(f.at("probability").get<double>() == Approx(probability_and_mean.first).margin(1e-9));
    CHECK(f.at("mean").get<double>() == Approx(probability_and_mean.second).epsilon(1e-9));
    CHECK(f.at("sd").get<double>() > 0);
    const double median = f.at("median"), p90 = f.at("p90"), p99 = f.at("p99");
    CHECK(0 < median);
    CHECK(median < p90);
    CHECK(p90 < p99);
  }
  // The top-level keys are still there and unchanged by the flag.
  check_same_measures(j, solve_json(file), 1e-12);
}

TEST_CASE("solve --lst --cdf --json: transforms and distribution functions",
          "[cli][solve][sojourn]") {
  const std::string file =
      GENERATE(shipped("paper-example-1.yaml"), shipped("teaching-two-robots.yaml"));
  INFO(file);
  const json j = solve_json(file, {"--lst", "0,0.5,1", "--cdf", "0.5,1,2,4"});
  const double p_served = j.at("p_served"), p_obsolete = j.at("p_obsolete");
  const auto mixture = [&](const json& row) {  // accepted = served or obsolete, by their weights
    return (p_served * row.at("served").get<double>() +
            p_obsolete * row.at("obsolete").get<double>()) /
           (p_served + p_obsolete);
  };
  const char* const fates[] = {"accepted", "served", "obsolete"};

  REQUIRE(j.contains("transforms"));
  const json& transforms = j.at("transforms");
  INFO(transforms.dump());
  REQUIRE(transforms.is_array());
  REQUIRE(transforms.size() == 3);
  const std::vector<double> u{0, 0.5, 1};
  for (std::size_t i = 0; i < transforms.size(); ++i) {
    const json& row = transforms[i];
    CHECK(row.at("u").get<double>() == u[i]);
    for (const char* fate : fates) {
      INFO("u = " << u[i] << ", " << fate);
      const double v = row.at(fate);
      CHECK((v >= 0 && v <= 1));
      if (u[i] == 0) CHECK(v == Approx(1.0).margin(1e-9));  // v(0) = 1 for a proper distribution
      if (i > 0) CHECK(v < transforms[i - 1].at(fate).get<double>());  // E exp(-uT) falls with u
    }
    CHECK(row.at("accepted").get<double>() == Approx(mixture(row)).epsilon(1e-9));
  }

  REQUIRE(j.contains("cdf"));
  const json& cdf = j.at("cdf");
  INFO(cdf.dump());
  REQUIRE(cdf.is_array());
  REQUIRE(cdf.size() == 4);
  const std::vector<double> x{0.5, 1, 2, 4};
  for (std::size_t i = 0; i < cdf.size(); ++i) {
    const json& row = cdf[i];
    CHECK(row.at("x").get<double>() == x[i]);
    for (const char* fate : fates) {
      INFO("x = " << x[i] << ", " << fate);
      const double f = row.at(fate);
      CHECK((f >= 0 && f <= 1));
      if (i > 0) CHECK(f > cdf[i - 1].at(fate).get<double>());
    }
    CHECK(row.at("accepted").get<double>() == Approx(mixture(row)).epsilon(1e-9));
  }
}

TEST_CASE("solve --lst with a negative u is refused", "[cli][solve][sojourn]") {
  const ProcessResult run =
      crawlq({"solve", shipped("paper-example-1.yaml"), "--lst", "-1", "--json"});
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains("--lst") && Catch::Contains("-1"));
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

TEST_CASE("solve --export: one row per state, summing by level to level_probabilities",
          "[cli][solve][export]") {
  TempDirectory dir;
  const std::string file = scenario_file(
      dir, GENERATE("paper-example-1.yaml", "teaching-two-robots.yaml", "three-modes.yaml"));
  INFO(file);
  const int capacity = read_capacity(file);
  const std::string csv = (dir.path() / "states.csv").string();
  const json j = solve_json(file, {"--export", csv});

  const std::vector<std::string> lines = lines_of(read_text(csv));
  REQUIRE_FALSE(lines.empty());
  std::string header = "level,arrival_phase,service_phase";
  for (int c = 1; c <= capacity - 1; ++c) header += ",clock_" + std::to_string(c);
  header += ",probability";
  CHECK(lines[0] == header);
  CHECK(lines.size() - 1 == j.at("states").get<std::size_t>());
  // Every clock phase solved, though the paper's clock would lump: a row for each state.
  CHECK(j.at("states_solved") == j.at("states"));
  CHECK_FALSE(j.contains("lumping"));

  std::vector<double> by_level(capacity + 1, 0.0);
  double total = 0;
  for (std::size_t row = 1; row < lines.size(); ++row) {
    INFO("row " << row << ": " << lines[row]);
    const std::vector<std::string> fields = split_csv(lines[row]);
    REQUIRE(fields.size() == static_cast<std::size_t>(capacity + 3));
    const int level = std::stoi(fields[0]);
    REQUIRE((level >= 0 && level <= capacity));
    // A service phase from level 1 on; one clock per waiting page (level - 1 of them).
    CHECK(fields[2].empty() == (level == 0));
    for (int c = 1; c <= capacity - 1; ++c) CHECK(fields[2 + c].empty() == (c > level - 1));
    const double p = std::stod(fields.back());
    CHECK(p >= 0);
    by_level[level] += p;
    total += p;
  }
  CHECK(total == Approx(1.0).margin(1e-9));
  for (int i = 0; i <= capacity; ++i) {
    INFO("level " << i);
    CHECK(by_level[i] == Approx(j.at("level_probabilities")[i].get<double>()).margin(1e-12));
  }
}

TEST_CASE("solve --export to a path that cannot be written is refused", "[cli][solve][export]") {
  TempDirectory dir;
  const std::string csv = (dir.path() / "no-such-directory" / "states.csv").string();
  const ProcessResult run =
      crawlq({"solve", shipped("paper-example-1.yaml"), "--export", csv, "--json"});
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains(csv));
}

TEST_CASE("solve: a file with no policy and no flag is refused, suggesting --thresholds",
          "[cli][solve]") {
  TempDirectory dir;
  const std::string file = dir.write("no-policy.yaml", kTwoModes);
  for (const bool as_json : {true, false}) {
    std::vector<std::string> args{"solve", file};
    if (as_json) args.push_back("--json");
    const ProcessResult run = crawlq(args);
    INFO(report(run));
    CHECK(run.exit_status == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains("no-policy.yaml") && Catch::Contains("--thresholds"));
  }
  // With a flag the same file solves.
  check_solve_json(solve_json(file, {"--thresholds", "1"}), 3, 2);
}

TEST_CASE("solve without --json: a readable table with the key figures", "[cli][solve][readable]") {
  const ProcessResult run = crawlq({"solve", shipped("paper-example-1.yaml"), "--sojourn"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK(run.err.empty());
  CHECK_FALSE(json::accept(run.out));
  for (const char* figure :
       {"paper-example-1", "P_loss", "63.54", "0.173437", "2.17307",
        "126 states, 22 solved: every clock phase exits at rate 0.2 per unit time",
        "--full-chain keeps them", "block-recursion", "accepted", "served", "obsolete"}) {
    INFO("figure " << figure);
    CHECK_THAT(run.out, Catch::Contains(figure));
  }
}

}  // namespace
}  // namespace crawlq::cli_test

namespace crawlq::cli_test {
namespace {

TEST_CASE("solve --threads: the iterative solve gives the same numbers on 1 and 2 threads",
          "[cli][solve]") {
  const TempDirectory dir;
  // K = 14: 65,534 states, past both the block recursion's reach and the operator's parallel
  // grain; the tagged page's largest block (2 x 2^13 states) is shared among threads too. The full
  // chain: lumped, the paper's clock leaves 58 states.
  const std::string file = dir.write(
      "k14.yaml", replace_once(read_text(CRAWLQ_SOURCE_DIR "/scenarios/data/paper-example-1.yaml"),
                               "capacity: 5", "capacity: 14"));
  const json one = solve_json(file, {"--threads", "1", "--sojourn", "--full-chain"});
  const json two = solve_json(file, {"--threads", "2", "--sojourn", "--full-chain"});
  CHECK(one.at("sojourn").at("served").at("p99").get<double>() > 0);
  CHECK(one["method"] == "iterative");
  CHECK(one["sojourn_method"] == "uniformisation");
  CHECK(without_timing(one).dump() == without_timing(two).dump());
  // Its first service phase 300 times as fast: the quantiles by Krylov steps, whose vectors of
  // 65,536 entries are two blocks of the threads' sums.
  const std::string stiff = dir.write(
      "k15-stiff.yaml", replace_once(replace_once(read_text(file), "capacity: 14", "capacity: 15"),
                                     "S: [[-3, 1], [2, -3]]", "S: [[-900, 300], [2, -3]]"));
  const json stiff_one = solve_json(stiff, {"--threads", "1", "--sojourn", "--full-chain"});
  CHECK(stiff_one["sojourn_method"] == "krylov");
  CHECK(without_timing(stiff_one).dump() ==
        without_timing(solve_json(stiff, {"--threads", "2", "--sojourn", "--full-chain"})).dump());
  // Threads that change from step to step (as they do while other programs hold cores), and the
  // threads as they follow this machine's cores: the same numbers.
  for (const std::string mode : {"alternate", "follow-cores"}) {
    INFO(mode);
    const test_support::ScopedEnvironment adaptation("CRAWLQ_THREAD_ADAPTATION", mode);
    const json switching = solve_json(file, {"--threads", "2", "--sojourn", "--full-chain"});
    CHECK(without_timing(switching).dump() == without_timing(one).dump());
    const json stiff_switching = solve_json(stiff, {"--threads", "2", "--sojourn", "--full-chain"});
    CHECK(without_timing(stiff_switching).dump() == without_timing(stiff_one).dump());
  }
  const ProcessResult refused = crawlq({"solve", file, "--threads", "-2"});
  CHECK(refused.exit_status == 2);
  CHECK_THAT(refused.err, Catch::Contains("--threads: -2"));
}

}  // namespace
}  // namespace crawlq::cli_test

TEST_CASE("solve: a chain past a million states is announced before the work",
          "[cli][solve][usage]") {
  const crawlq::cli_test::TempDirectory dir;
  // K = 20 with one arrival phase, one service phase and a two-phase clock: 2^20 states.
  const std::string file = dir.write(
      "big.yaml",
      "name: big\ncapacity: 20\nadmission: partial\narrivals:\n  kind: independent\n  robots: "
      "[{rate: 1.5, batch: [1]}]\nservice: {exponential: {mean: 0.5}}\nobsolescence: {erlang: "
      "{phases: 2, mean: 4}}\ncosts: {loss: 1, obsolescence: 1, sojourn: 1, robot: 1, "
      "starvation: 1}\n");
  const crawlq::cli_test::ProcessResult big = crawlq::cli_test::crawlq({"solve", file, "--json"});
  INFO(big.err);
  REQUIRE(big.exit_status == 0);
  CHECK_THAT(big.err, Catch::Matchers::Contains("1048576 states") &&
                          Catch::Matchers::Contains("the solve may take a while"));
  CHECK(crawlq::cli_test::json_of(big).at("states") == 1048576);
  // A small chain is not.
  const crawlq::cli_test::ProcessResult small =
      crawlq::cli_test::crawlq({"solve", crawlq::cli_test::shipped("paper-example-1.yaml")});
  CHECK_THAT(small.err, !Catch::Matchers::Contains("may take a while"));
}
