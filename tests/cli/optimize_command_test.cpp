// `crawlq optimize`: the best threshold policy, the constant policies and Table 1's best per set of
// modes, checked against `solve` on the same policies; the level-map class; thread independence.
#include <algorithm>
#include <catch2/catch.hpp>
#include <limits>
#include <set>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

json optimize_json(const std::string& file, std::vector<std::string> args = {}) {
  args.insert(args.begin(), {"optimize", file});
  args.push_back("--json");
  const ProcessResult run = crawlq(args);
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  return json_of(run);
}

double solved_cost(const std::string& file, const std::vector<int>& levels) {
  const ProcessResult run = crawlq({"solve", file, "--levels", comma_list(levels), "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  return json_of(run).at("cost").get<double>();
}

// Every non-empty subset of 1..n, in Table 1's order: by size, then lexicographically on the modes
// in increasing order; each listed from most robots to fewest.
std::vector<std::vector<int>> table_1_order(int n) {
  std::vector<std::vector<int>> sets;
  for (unsigned mask = 1; mask < (1u << n); ++mask) {
    std::vector<int> increasing;
    for (int r = 1; r <= n; ++r)
      if (mask & (1u << (r - 1))) increasing.push_back(r);
    sets.push_back(increasing);
  }
  std::sort(sets.begin(), sets.end(), [](const auto& a, const auto& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  for (auto& s : sets) std::reverse(s.begin(), s.end());
  return sets;
}

TEST_CASE("optimize --json on paper-example-1: best, constant and by_modes as in Table 1",
          "[cli][optimize]") {
  const std::string file = shipped("paper-example-1.yaml");
  const int n = 4, capacity = 5;
  const json j = optimize_json(file);
  INFO(j.dump());
  for (const char* key : {"best", "constant", "by_modes"}) {
    INFO("key " << key);
    REQUIRE(j.contains(key));
  }
  const json& best = j.at("best");
  for (const char* key : {"thresholds", "levels", "cost"}) {
    INFO("best." << key);
    REQUIRE(best.contains(key));
  }
  CHECK(best.at("thresholds").size() == static_cast<std::size_t>(n - 1));
  CHECK(best.at("levels").size() == static_cast<std::size_t>(capacity + 1));
  // The paper's optimum (Table 1): 3 robots up to 2 pages, then 1; cost 63.54.
  CHECK(best.at("levels").get<std::vector<int>>() == std::vector<int>{3, 3, 3, 1, 1, 1});
  CHECK(best.at("cost").get<double>() == Approx(63.54).margin(0.005));
  CHECK(best.at("cost").get<double>() ==
        Approx(solved_cost(file, best.at("levels").get<std::vector<int>>())).epsilon(1e-12));
  {  // best.thresholds is the same policy as best.levels
    const ProcessResult run =
        crawlq({"solve", file, "--thresholds",
                comma_list(best.at("thresholds").get<std::vector<int>>()), "--json"});
    INFO(report(run));
    REQUIRE(run.exit_status == 0);
    CHECK(json_of(run).at("policy").at("levels") == best.at("levels"));
  }

  const json& constant = j.at("constant");
  REQUIRE(constant.size() == static_cast<std::size_t>(n));
  for (int r = 1; r <= n; ++r) {
    INFO("constant[" << r - 1 << "]");
    CHECK(constant[r - 1].get<double>() ==
          Approx(solved_cost(file, std::vector<int>(capacity + 1, r))).epsilon(1e-12));
  }

  const json& by_modes = j.at("by_modes");
  const auto expected_order = table_1_order(n);
  REQUIRE(by_modes.size() == expected_order.size());
  REQUIRE(by_modes.size() == 15u);  // 2^N - 1
  double least = std::numeric_limits<double>::infinity();
  json least_entry;
  for (std::size_t e = 0; e < by_modes.size(); ++e) {
    const json& entry = by_modes[e];
    INFO("by_modes[" << e << "] = " << entry.dump());
    for (const char* key : {"modes", "thresholds", "levels", "cost"}) REQUIRE(entry.contains(key));
    const auto modes = entry.at("modes").get<std::vector<int>>();
    const auto levels = entry.at("levels").get<std::vector<int>>();
    const auto thresholds = entry.at("thresholds").get<std::vector<int>>();
    CHECK(modes == expected_order[e]);
    REQUIRE(levels.size() == static_cast<std::size_t>(capacity + 1));
    // Exactly these modes are used, each on at least one level, robots never rising with the level.
    CHECK(std::set<int>(levels.begin(), levels.end()) == std::set<int>(modes.begin(), modes.end()));
    CHECK(std::is_sorted(levels.rbegin(), levels.rend()));
    // Thresholds among the modes: t_q the last level of modes[q - 1], strictly increasing.
    REQUIRE(thresholds.size() == modes.size() - 1);
    for (std::size_t q = 0; q < thresholds.size(); ++q) {
      int last = -1;
      for (int level = 0; level <= capacity; ++level)
        if (levels[level] == modes[q]) last = level;
      CHECK(thresholds[q] == last);
      if (q > 0) CHECK(thresholds[q] > thresholds[q - 1]);
    }
    const double cost = entry.at("cost");
    CHECK(cost == Approx(solved_cost(file, levels)).epsilon(1e-12));
    CHECK(cost >= best.at("cost").get<double>());
    if (modes.size() == 1)
      CHECK(cost == Approx(constant[modes[0] - 1].get<double>()).epsilon(1e-12));
    if (cost < least) least = cost, least_entry = entry;
  }
  CHECK(best.at("cost").get<double>() == least);
  CHECK(best.at("levels") == least_entry.at("levels"));
  // Table 1's row "3 or 1": threshold 2.
  CHECK(by_modes[5].at("modes").get<std::vector<int>>() == std::vector<int>{3, 1});
  CHECK(by_modes[5].at("thresholds").get<std::vector<int>>() == std::vector<int>{2});
}

TEST_CASE("optimize --json: --threads 1 and --threads 2 give the same answer", "[cli][optimize]") {
  TempDirectory dir;
  const std::string file = scenario_file(dir, GENERATE("paper-example-1.yaml", "three-modes.yaml"));
  INFO(file);
  json one = optimize_json(file, {"--threads", "1"});
  json two = optimize_json(file, {"--threads", "2"});
  one.erase("seconds");
  two.erase("seconds");
  CHECK(one.dump() == two.dump());
}

TEST_CASE("optimize --class levels: the best level map costs no more than the best thresholds",
          "[cli][optimize]") {
  TempDirectory dir;
  const std::string file =
      scenario_file(dir, GENERATE("two-modes.yaml", "three-modes.yaml", "level-map-wins.yaml"));
  INFO(file);
  const int capacity = read_capacity(file);
  const json thresholds = optimize_json(file);
  const json levels = optimize_json(file, {"--class", "levels"});
  INFO(thresholds.dump() << "\n" << levels.dump());
  REQUIRE(levels.contains("best"));
  for (const char* key : {"levels", "cost"}) REQUIRE(levels.at("best").contains(key));
  CHECK_FALSE(levels.contains("by_modes"));  // interface.md: omitted with --class levels
  const auto best_levels = levels.at("best").at("levels").get<std::vector<int>>();
  CHECK(best_levels.size() == static_cast<std::size_t>(capacity + 1));
  const double level_cost = levels.at("best").at("cost");
  const double threshold_cost = thresholds.at("best").at("cost");
  CHECK(level_cost <= threshold_cost + 1e-12 * threshold_cost);
  CHECK(level_cost == Approx(solved_cost(file, best_levels)).epsilon(1e-12));
  // A best map that is a threshold policy says so; one that is not has no thresholds.
  CHECK(levels.at("best").contains("thresholds") ==
        std::is_sorted(best_levels.rbegin(), best_levels.rend()));
}

TEST_CASE("optimize --class levels finds a map outside the threshold class when it is better",
          "[cli][optimize]") {
  TempDirectory dir;
  const std::string file = dir.write("level-map-wins.yaml", kLevelMapWins);
  const json thresholds = optimize_json(file);
  const json levels = optimize_json(file, {"--class", "levels"});
  CHECK(levels.at("best").at("levels").get<std::vector<int>>() == std::vector<int>{1, 1, 1, 2});
  CHECK(levels.at("best").at("cost").get<double>() <
        thresholds.at("best").at("cost").get<double>() - 1e-3);
}

TEST_CASE("optimize --class levels on paper-real-data (4^21 maps) is refused naming the count",
          "[cli][optimize]") {
  const ProcessResult run =
      crawlq({"optimize", shipped("paper-real-data.yaml"), "--class", "levels", "--json"});
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains("paper-real-data.yaml") && Catch::Contains("4398046511104"));
}

TEST_CASE("optimize: an unknown --class, --method or --search is refused naming it",
          "[cli][optimize]") {
  const auto [flag, value] = GENERATE(table<std::string, std::string>({{"--class", "everything"},
                                                                       {"--method", "nonsense"},
                                                                       {"--threads", "-3"},
                                                                       {"--search", "greedy"},
                                                                       {"--search", "Local"},
                                                                       {"--starts", "-1"}}));
  const ProcessResult run =
      crawlq({"optimize", shipped("paper-example-1.yaml"), flag, value, "--json"});
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains(flag) && Catch::Contains(value));
}

TEST_CASE("optimize without --json: a readable table with the key figures",
          "[cli][optimize][readable]") {
  const ProcessResult run = crawlq({"optimize", shipped("paper-example-1.yaml")});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK(run.err.empty());
  CHECK_FALSE(json::accept(run.out));
  // The best cost, the constant policies' costs (Table 1) and every mode set's row.
  for (const char* figure :
       {"paper-example-1", "63.54", "149.9", "110.0", "89.40", "130.3", "best"}) {
    INFO("figure " << figure);
    CHECK_THAT(run.out, Catch::Contains(figure));
  }
}

TEST_CASE(
    "optimize --search exhaustive and auto on paper-example-1: every policy solved, by_modes kept",
    "[cli][optimize][search]") {
  const std::string file = shipped("paper-example-1.yaml");
  const json plain = optimize_json(file);
  const json exhaustive = optimize_json(file, {"--search", "exhaustive"});
  const json automatic = optimize_json(file, {"--search", "auto"});
  for (const json* j : {&plain, &exhaustive, &automatic}) {
    INFO(j->dump());
    // interface.md's keys stay; the search's keys are added.
    for (const char* key : {"best", "constant", "by_modes", "search", "optimality",
                            "policies_solved", "threshold_policies"})
      CHECK(j->contains(key));
    CHECK(j->at("search") == "exhaustive");
    CHECK(j->at("optimality") == "global");
    CHECK(j->at("policies_solved") == 84);  // C(K + N, N - 1) = C(9, 3)
    CHECK(j->at("threshold_policies") == 84);
    CHECK_FALSE(j->contains("not_reported"));
  }
  CHECK(exhaustive.at("best") == plain.at("best"));
  CHECK(exhaustive.at("by_modes") == plain.at("by_modes"));
}

TEST_CASE(
    "optimize --search local on paper-example-1: Table 1's optimum from 15 policies, no by_modes",
    "[cli][optimize][search]") {
  const std::string file = shipped("paper-example-1.yaml");
  const json all = optimize_json(file, {"--search", "exhaustive"});
  const json local = optimize_json(file, {"--search", "local"});
  INFO(local.dump());
  for (const char* key : {"best", "constant", "search", "optimality", "policies_solved",
                          "threshold_policies", "start", "descents", "moves", "not_reported"})
    CHECK(local.contains(key));
  CHECK(local.at("search") == "local");
  CHECK(local.at("optimality") == "local");
  // Table 1's per-mode-set bests are not known to a local search: left out and said so, not faked.
  CHECK_FALSE(local.contains("by_modes"));
  CHECK(local.at("not_reported") == json::array({"by_modes"}));
  CHECK(local.at("policies_solved") == 15);
  CHECK(local.at("threshold_policies") == 84);
  CHECK(local.at("descents") == 1);
  CHECK(local.at("best").at("levels") == all.at("best").at("levels"));
  CHECK(local.at("best").at("thresholds") == all.at("best").at("thresholds"));
  CHECK(local.at("best").at("cost").get<double>() ==
        Approx(all.at("best").at("cost").get<double>()).epsilon(1e-9));
  CHECK(local.at("start").at("cost").get<double>() >= local.at("best").at("cost").get<double>());
  REQUIRE(local.at("constant").size() == 4u);
  for (std::size_t r = 0; r < 4; ++r)
    CHECK(local.at("constant")[r].get<double>() ==
          Approx(all.at("constant")[r].get<double>()).epsilon(1e-9));
  // Descending from every grid vector solves more policies, never more than all of them.
  const json every = optimize_json(file, {"--search", "local", "--starts", "0"});
  CHECK(every.at("descents") == 10);
  CHECK(every.at("policies_solved").get<int>() > 15);
  CHECK(every.at("policies_solved").get<int>() <= 84);
  CHECK(every.at("best").at("levels") == all.at("best").at("levels"));
}

TEST_CASE("optimize --search local: the same answer for --threads 1 and --threads 2",
          "[cli][optimize][search]") {
  TempDirectory dir;
  const std::string file = scenario_file(dir, GENERATE("paper-example-1.yaml", "three-modes.yaml"));
  INFO(file);
  json one = optimize_json(file, {"--search", "local", "--threads", "1"});
  json two = optimize_json(file, {"--search", "local", "--threads", "2"});
  one.erase("seconds");
  two.erase("seconds");
  CHECK(one.dump() == two.dump());
}

TEST_CASE(
    "optimize --search auto: local beyond the limit (the paper's example at K = 13), and says why",
    "[cli][optimize][search]") {
  TempDirectory dir;
  const std::string file = dir.write(
      "paper-k13.yaml",
      replace_once(read_text(shipped("paper-example-1.yaml")), "capacity: 5", "capacity: 13"));
  // The full chain: lumped (the paper's clock leaves both phases at 0.2), each solve has 54 states
  // and the whole class is searched, to the same optimum.
  const json j = optimize_json(file, {"--full-chain"});
  INFO(j.dump());
  CHECK(j.at("search") == "local");
  const json lumped = optimize_json(file);
  CHECK(lumped.at("search") == "exhaustive");
  CHECK(lumped.at("best").at("thresholds") == j.at("best").at("thresholds"));
  CHECK(j.at("threshold_policies") == 680);
  CHECK(j.at("policies_solved").get<int>() < 680);
  CHECK_FALSE(j.contains("by_modes"));
  // The optimum's shape of Table 2 at large K: 3 robots up to 3 pages, then 1.
  CHECK(j.at("best").at("thresholds") == json::array({-1, 3, 3}));
  const ProcessResult run = crawlq({"optimize", file, "--full-chain"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.out, Catch::Contains("local search (auto:") && Catch::Contains("680 policies") &&
                          Catch::Contains("> 1e+07") &&
                          Catch::Contains("not reported by the local search"));
  // Lumped, the size that chose the search is the lumped chain's, and the table says so.
  const ProcessResult lumped_run = crawlq({"optimize", file});
  INFO(report(lumped_run));
  CHECK_THAT(
      lumped_run.out,
      Catch::Contains("exhaustive search (auto: 680 policies x (54 states + 1000)") &&
          Catch::Contains("<= 1e+07") &&
          Catch::Contains("the clock's phases lumped: every phase exits at rate 0.2 per "
                          "unit time, so each chain solved has 54 states in place of 32766"));
}

TEST_CASE("optimize --search local --class levels is refused: the level class is only enumerated",
          "[cli][optimize][search]") {
  const ProcessResult run = crawlq({"optimize", shipped("paper-example-1.yaml"), "--class",
                                    "levels", "--search", "local", "--json"});
  check_refused(run, {"--search local", "--class levels"});
}

TEST_CASE("optimize --search local without --json: what it found and what it does not report",
          "[cli][optimize][search][readable]") {
  const ProcessResult run =
      crawlq({"optimize", shipped("paper-example-1.yaml"), "--search", "local"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK(run.err.empty());
  for (const char* figure :
       {"local search", "15 of the 84", "63.54", "149.9", "110.0", "89.40", "130.3",
        "not reported by the local search", "per set of modes", "local minimum"}) {
    INFO("figure " << figure);
    CHECK_THAT(run.out, Catch::Contains(figure));
  }
  // No Table 1 rows: no mixed mode set is printed.
  CHECK_THAT(run.out, !Catch::Contains("3 or 1"));
}

TEST_CASE("optimize --help explains the searches", "[cli][optimize][search]") {
  const ProcessResult run = crawlq({"optimize", "--help"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  for (const char* text :
       {"--search", "exhaustive", "local", "auto", "--starts", "local minimum"}) {
    INFO(text);
    CHECK_THAT(run.out, Catch::Contains(text));
  }
}

}  // namespace
}  // namespace crawlq::cli_test

namespace crawlq::cli_test {
namespace {

TEST_CASE(
    "optimize --class markov: the exported table, read back by solve, costs what optimize said",
    "[cli][optimize][markov]") {
  TempDirectory dir;
  const std::string name =
      GENERATE(as<std::string>{}, "teaching-two-robots.yaml", "three-modes.yaml");
  const std::string file = scenario_file(dir, name);
  INFO(file);
  const std::string table = (dir.path() / ("best-" + name + ".csv")).string();
  const json j = optimize_json(file, {"--class", "markov", "--export-policy", table});
  CHECK(j.at("class") == "markov");
  CHECK(j.at("best").at("policy").at("table") == table);
  // Never above the threshold class it contains; never below its own certificate.
  CHECK(j.at("best").at("cost").get<double>() <=
        j.at("threshold_best").at("cost").get<double>() * (1 + 1e-12));
  CHECK(j.at("lower_bound").get<double>() <= j.at("best").at("cost").get<double>() * (1 + 1e-9));
  const std::string text = read_text(file);
  const auto policy_at = text.find("\npolicy:");
  const std::string body = policy_at == std::string::npos ? text : text.substr(0, policy_at + 1);
  const std::string with_table =
      dir.write("with-table-" + name, body + "\npolicy: {table: " + table + "}\n");
  const ProcessResult run = crawlq({"solve", with_table, "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK(json_of(run).at("cost").get<double>() ==
        Approx(j.at("best").at("cost").get<double>()).epsilon(1e-9));
  CHECK(json_of(run).at("policy").at("kind") == "table");
}

TEST_CASE(
    "optimize --export-policy writes every class's best for --policy FILE, and --class all has none to write",
    "[cli][optimize][markov]") {
  TempDirectory dir;
  const std::string file = shipped("paper-example-1.yaml");
  for (const std::string form : {"thresholds", "levels", "phase-aware", "memory", "markov"}) {
    INFO(form);
    const std::string exported =
        (dir.path() / (form + (form == "markov" ? ".csv" : ".yaml"))).string();
    const double best = optimize_json(file, {"--class", form, "--export-policy", exported})
                            .at("best")
                            .at("cost")
                            .get<double>();
    for (const std::string command : {"solve", "validate"}) {
      const ProcessResult run = crawlq({command, file, "--policy", exported, "--json",
                                        "--replications", "3", "--horizon", "200"});
      if (command == "solve") {
        // (solve takes no simulation flags: run it without them)
        const ProcessResult solved = crawlq({"solve", file, "--policy", exported, "--json"});
        INFO(report(solved));
        REQUIRE(solved.exit_status == 0);
        CHECK(json_of(solved).at("cost").get<double>() == Approx(best).epsilon(1e-10));
        continue;
      }
      INFO(report(run));
      CHECK(run.exit_status == 0);
    }
  }
  const ProcessResult all = crawlq(
      {"optimize", file, "--class", "all", "--export-policy", (dir.path() / "x.yaml").string()});
  CHECK(all.exit_status == 2);
  CHECK_THAT(all.err, Catch::Contains("--export-policy"));
  CHECK(all.out.empty());
}

TEST_CASE(
    "a policy table of the wrong length or with robots out of range is refused naming the file",
    "[cli][markov][bad-input]") {
  TempDirectory dir;
  const std::string table = dir.write("short.csv", "robots\n1\n2\n");
  const std::string text = read_text(shipped("teaching-two-robots.yaml"));
  const std::string body = text.substr(0, text.find("\npolicy:") + 1);
  const std::string file = dir.write("short.yaml", body + "\npolicy: {table: short.csv}\n");
  const ProcessResult run = crawlq({"solve", file, "--json"});
  CHECK(run.exit_status == 2);
  CHECK_THAT(run.err,
             Catch::Contains("short.csv") && Catch::Contains("2 robots values but the chain has"));
  const std::string bad = dir.write("bad.csv", "robots\n1\nx\n");
  const std::string file2 = dir.write("bad.yaml", body + "\npolicy: {table: bad.csv}\n");
  const ProcessResult run2 = crawlq({"solve", file2, "--json"});
  CHECK(run2.exit_status == 2);
  CHECK_THAT(run2.err, Catch::Contains("bad.csv line 3"));
}

}  // namespace
}  // namespace crawlq::cli_test

namespace crawlq::cli_test {
namespace {

TEST_CASE(
    "optimize --class phase-aware and memory: tables of the right shape, never above thresholds, solved back",
    "[cli][optimize][markov]") {
  TempDirectory dir;
  const std::string file = shipped("paper-example-1.yaml");
  const double thresholds = optimize_json(file).at("best").at("cost").get<double>();
  for (const std::string form : {"phase-aware", "memory"}) {
    INFO(form);
    const json j = optimize_json(file, {"--class", form});
    CHECK(j.at("class") == form);
    const std::string key = form == "memory" ? "memory" : "phase_aware";
    const auto table = j.at("best").at(key);
    REQUIRE(table.size() == 6);                                 // K + 1 rows
    CHECK(table.at(0).size() == (form == "memory" ? 4u : 2u));  // N modes, W arrival phases
    CHECK(j.at("best").at("cost").get<double>() <= thresholds * (1 + 1e-12));
    // The table as the scenario's policy: solve gives the same cost.
    const std::string text = read_text(file);
    const std::string body = text.substr(0, text.find("\npolicy:") + 1);
    const std::string scenario =
        dir.write(form + ".yaml", body + "\npolicy:\n  " + form + ": " + table.dump() + "\n");
    const ProcessResult run = crawlq({"solve", scenario, "--json"});
    INFO(report(run));
    REQUIRE(run.exit_status == 0);
    CHECK(json_of(run).at("cost").get<double>() ==
          Approx(j.at("best").at("cost").get<double>()).epsilon(1e-10));
  }
}

TEST_CASE(
    "optimize --class all: one row per class, each at least the optimum, in the order of the classes",
    "[cli][optimize][markov]") {
  const json j = optimize_json(shipped("paper-example-1.yaml"), {"--class", "all"});
  const std::vector<std::string> order{"constant", "thresholds",  "levels",
                                       "memory",   "phase-aware", "markov"};
  REQUIRE(j.at("rows").size() == order.size());
  const double optimum = j.at("optimum").get<double>();
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& row = j.at("rows").at(i);
    CHECK(row.at("class") == order[i]);
    CHECK(row.at("excess").get<double>() >= 0);
    CHECK(row.at("cost").get<double>() ==
          Approx(optimum + row.at("excess").get<double>()).epsilon(1e-12));
  }
  // Each class contains the one before it (memory and phase-aware both contain the level maps).
  const auto cost = [&](std::size_t i) { return j.at("rows").at(i).at("cost").get<double>(); };
  CHECK(cost(1) <= cost(0));
  CHECK(cost(2) <= cost(1) * (1 + 1e-12));
  CHECK(cost(3) <= cost(2) * (1 + 1e-12));
  CHECK(cost(4) <= cost(2) * (1 + 1e-12));
  CHECK(j.at("lower_bound").get<double>() <= optimum);
}

}  // namespace
}  // namespace crawlq::cli_test

namespace crawlq::cli_test {
namespace {

TEST_CASE(
    "optimize --class markov refuses a chain whose every policy would not fit, before any work",
    "[cli][optimize][markov][bad-input]") {
  TempDirectory dir;
  // K = 22 of the paper's example: 16.8 million states, four constant generators of them (57 GiB).
  const std::string file = dir.write(
      "k22.yaml",
      replace_once(read_text(shipped("paper-example-1.yaml")), "capacity: 5", "capacity: 22"));
  const ProcessResult run = crawlq({"optimize", file, "--class", "markov"});
  CHECK(run.exit_status == 2);
  CHECK_THAT(run.err,
             Catch::Contains("--class markov") && Catch::Contains("largest capacity that fits"));
  CHECK(run.out.empty());
}

TEST_CASE("optimize: a gap is quoted on one named base, the cheaper cost, in every class's table",
          "[cli][optimize][readable]") {
  const std::string file = shipped("paper-example-1.yaml");
  const ProcessResult all = crawlq({"optimize", file, "--class", "all"});
  const ProcessResult markov = crawlq({"optimize", file, "--class", "markov"});
  INFO(report(all) << report(markov));
  REQUIRE(all.exit_status == 0);
  REQUIRE(markov.exit_status == 0);
  // The thresholds' excess over the best of all, as --class all prints it, is the gap
  // --class markov quotes: (63.542548 - 53.917924) / 53.917924.
  CHECK_THAT(all.out, Catch::Matches("(.|\n)*thresholds +63.542548 +9.62462 +17.85%(.|\n)*"));
  CHECK_THAT(all.out, Catch::Contains("as a share of that best cost"));
  CHECK_THAT(markov.out, Catch::Contains("the threshold optimum costs 17.85% more"));
  CHECK_THAT(markov.out, !Catch::Contains("below"));
}

}  // namespace
}  // namespace crawlq::cli_test
