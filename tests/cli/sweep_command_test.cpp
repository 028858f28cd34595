// `crawlq sweep`: one parameter varied, re-optimised at each value; its rows checked against
// `optimize` on the same model, its CSV against its JSON, and every refused input.
#include <catch2/catch.hpp>
#include <sstream>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

json sweep_json(const std::string& file, const std::string& param, const std::string& values,
                std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"sweep", file, "--param", param, "--values", values, "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult run = crawlq(args, std::chrono::seconds(60));
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  return json_of(run);
}

json optimize_json(const std::string& file) {
  const ProcessResult run = crawlq({"optimize", file, "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  return json_of(run);
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.push_back("");
  return fields;
}

const std::vector<std::string> kRowKeys{"value",
                                        "best",
                                        "constant",
                                        "relative_profit",
                                        "lambda",
                                        "p_loss",
                                        "p_obsolete",
                                        "p_served",
                                        "p_starvation",
                                        "mean_active_robots",
                                        "mean_sojourn_served",
                                        "mean_service_time",
                                        "mean_obsolescence_time"};

TEST_CASE("sweep --json over capacity 1..5: keys, rows in order, K = 5 as optimize",
          "[cli][sweep]") {
  const std::string file = shipped("paper-example-1.yaml");
  const json j = sweep_json(file, "capacity", "1,2,3,4,5");
  INFO(j.dump());
  CHECK(j.at("param") == "capacity");
  const json& rows = j.at("rows");
  REQUIRE(rows.size() == 5u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const json& row = rows[i];
    INFO("rows[" << i << "] = " << row.dump());
    for (const auto& key : kRowKeys) {
      INFO("key " << key);
      CHECK(row.contains(key));
    }
    for (const char* key : {"thresholds", "levels", "cost"}) REQUIRE(row.at("best").contains(key));
    CHECK(row.at("value").get<double>() == static_cast<double>(i + 1));
    CHECK(row.at("best").at("levels").size() == i + 2);  // levels 0..K
    CHECK(row.at("best").at("thresholds").size() == 3u);
    REQUIRE(row.at("constant").size() == 4u);
    double least = row.at("constant")[0].get<double>();
    for (const auto& c : row.at("constant")) least = std::min(least, c.get<double>());
    const double cost = row.at("best").at("cost").get<double>();
    CHECK(cost <= least);
    CHECK(row.at("relative_profit").get<double>() ==
          Approx(100 * (1 - cost / least)).epsilon(1e-12));
    const double served = row.at("p_served"), lost = row.at("p_loss"),
                 obsolete = row.at("p_obsolete");
    CHECK(served + lost + obsolete == Approx(1).epsilon(1e-9));
    // b_1 = 4.6 / 7 and g_1 = 5 for the file's (beta, S) and (gamma, Gamma): unchanged by K.
    CHECK(row.at("mean_service_time").get<double>() == Approx(4.6 / 7).epsilon(1e-12));
    CHECK(row.at("mean_obsolescence_time").get<double>() == Approx(5).epsilon(1e-12));
  }
  const json optimized = optimize_json(file);
  const json& k5 = rows[4];
  CHECK(k5.at("best").at("cost").get<double>() ==
        Approx(optimized.at("best").at("cost").get<double>()).epsilon(1e-12));
  CHECK(k5.at("best").at("levels") == optimized.at("best").at("levels"));
  CHECK(k5.at("best").at("thresholds") == optimized.at("best").at("thresholds"));
  CHECK(k5.at("best").at("levels").get<std::vector<int>>() == std::vector<int>{3, 3, 3, 1, 1, 1});
  REQUIRE(k5.at("constant").size() == optimized.at("constant").size());
  for (std::size_t r = 0; r < 4; ++r)
    CHECK(k5.at("constant")[r].get<double>() ==
          Approx(optimized.at("constant")[r].get<double>()).epsilon(1e-12));
}

TEST_CASE("sweep: a scale or cost equal to the file's own gives optimize's answer",
          "[cli][sweep]") {
  const std::string file = shipped("paper-example-1.yaml");
  const double best = optimize_json(file).at("best").at("cost");
  // The file has robot cost 20: the row for 20 is the file itself; scale 1 likewise.
  const auto [param, values, own] =
      GENERATE(table<std::string, std::string, std::size_t>({{"costs.robot", "0,20,40", 1},
                                                             {"service-scale", "0.5,1,2", 1},
                                                             {"arrival-scale", "1,3", 0},
                                                             {"obsolescence-scale", "1", 0},
                                                             {"costs.starvation", "300", 0}}));
  INFO(param << " " << values);
  const json j = sweep_json(file, param, values);
  CHECK(j.at("param") == param);
  CHECK(j.at("rows")[own].at("best").at("cost").get<double>() == Approx(best).epsilon(1e-12));
  if (param == "costs.robot") {  // cheaper robots, cheaper optimum
    const json& rows = j.at("rows");
    CHECK(rows[0].at("best").at("cost").get<double>() <
          rows[1].at("best").at("cost").get<double>());
    CHECK(rows[1].at("best").at("cost").get<double>() <
          rows[2].at("best").at("cost").get<double>());
  }
  if (param == "service-scale") {  // the mean service time divided by the factor
    const json& rows = j.at("rows");
    CHECK(rows[0].at("mean_service_time").get<double>() == Approx(2 * 4.6 / 7).epsilon(1e-12));
    CHECK(rows[2].at("mean_service_time").get<double>() == Approx(4.6 / 7 / 2).epsilon(1e-12));
  }
  if (param == "arrival-scale") {  // rates tripled: three times the pages offered, more lost
    const json& rows = j.at("rows");
    CHECK(rows[1].at("p_loss").get<double>() > rows[0].at("p_loss").get<double>());
  }
}

TEST_CASE("sweep --threads 1 and --threads 2 print the same JSON", "[cli][sweep]") {
  TempDirectory dir;
  const std::string file = scenario_file(dir, GENERATE("paper-example-1.yaml", "two-modes.yaml"));
  INFO(file);
  const json one = sweep_json(file, "capacity", "4,1,3,2,3", {"--threads", "1"});
  const json two = sweep_json(file, "capacity", "4,1,3,2,3", {"--threads", "2"});
  CHECK(one.dump() == two.dump());
  REQUIRE(one.at("rows").size() == 5u);
  CHECK(one.at("rows")[2].dump() == one.at("rows")[4].dump());  // a repeated value, a repeated row
}

TEST_CASE("sweep --csv: a header and one line per value, as the JSON says", "[cli][sweep]") {
  TempDirectory dir;
  const std::string csv = (dir.path() / "capacity.csv").string();
  const std::string file = shipped("paper-example-1.yaml");
  const json j = sweep_json(file, "capacity", "1,2,3,4,5", {"--csv", csv});
  const std::vector<std::string> lines = lines_of(read_text(csv));
  REQUIRE(lines.size() == 6u);
  const std::vector<std::string> header = fields_of(lines[0]);
  const std::vector<std::string> expected{"value",
                                          "thresholds",
                                          "levels",
                                          "cost",
                                          "C1",
                                          "C2",
                                          "C3",
                                          "C4",
                                          "relative_profit",
                                          "lambda",
                                          "p_loss",
                                          "p_obsolete",
                                          "p_served",
                                          "p_starvation",
                                          "mean_active_robots",
                                          "mean_in_system",
                                          "mean_in_queue",
                                          "mean_sojourn",
                                          "mean_sojourn_served",
                                          "mean_sojourn_obsolete",
                                          "mean_service_time",
                                          "mean_obsolescence_time"};
  CHECK(header == expected);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    INFO(lines[i]);
    const std::vector<std::string> fields = fields_of(lines[i]);
    REQUIRE(fields.size() == header.size());
    const json& row = j.at("rows")[i - 1];
    CHECK(std::stod(fields[0]) == row.at("value").get<double>());
    std::vector<int> levels;
    std::istringstream in(fields[2]);
    for (int robots; in >> robots;) levels.push_back(robots);
    CHECK(levels == row.at("best").at("levels").get<std::vector<int>>());
    CHECK(std::stod(fields[3]) == Approx(row.at("best").at("cost").get<double>()).epsilon(1e-14));
    CHECK(std::stod(fields[10]) == Approx(row.at("p_loss").get<double>()).epsilon(1e-14));
    // Every measure column says what the JSON row says.
    for (std::size_t c = 9; c + 2 < header.size(); ++c) {
      INFO(header[c]);
      CHECK(std::stod(fields[c]) == Approx(row.at(header[c]).get<double>()).epsilon(1e-14));
    }
  }
  CHECK(lines[5].rfind("5,-1 2 2,3 3 3 1 1 1,", 0) == 0);
}

TEST_CASE("sweep without --json: a readable table with the key figures", "[cli][sweep][readable]") {
  const ProcessResult run =
      crawlq({"sweep", shipped("paper-example-1.yaml"), "--param", "capacity", "--values", "4,5"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK(run.err.empty());
  CHECK_FALSE(json::accept(run.out));
  for (const char* figure : {"paper-example-1", "capacity", "63.54", "3 3 3 1 1 1", "149.9",
                             "the clock's phases lumped: every phase exits at rate 0.2 per unit "
                             "time"}) {
    INFO("figure " << figure);
    CHECK_THAT(run.out, Catch::Contains(figure));
  }
  const ProcessResult full = crawlq({"sweep", shipped("paper-example-1.yaml"), "--param",
                                     "capacity", "--values", "4,5", "--full-chain"});
  CHECK_THAT(full.out, !Catch::Contains("lumped") && Catch::Contains("63.54"));
}

TEST_CASE("sweep --help names every parameter and gives an example", "[cli][sweep]") {
  const ProcessResult run = crawlq({"sweep", "--help"});
  INFO(report(run));
  CHECK(run.exit_status == 0);
  for (const char* text :
       {"capacity", "service-scale", "obsolescence-scale", "arrival-scale", "costs.loss",
        "costs.starvation", "--values", "--csv", "--threads", "crawlq sweep paper-example-1 "}) {
    INFO("text " << text);
    CHECK_THAT(run.out, Catch::Contains(text));
  }
}

TEST_CASE("sweep: bad flags and values refused naming the flag and the value",
          "[cli][sweep][bad-input]") {
  const std::string file = shipped("paper-example-1.yaml");
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> fragments;
  };
  const std::vector<Case> cases{
      {{"--param", "speed", "--values", "1"}, {"--param", "speed", "capacity"}},
      {{"--param", "capacity", "--values", "1,x"}, {"--values", "'x'"}},
      {{"--param", "capacity", "--values", "1,,2"}, {"--values", "''"}},
      {{"--param", "capacity", "--values", "2.5"}, {"--values", "capacity 2.5"}},
      {{"--param", "capacity", "--values", "3,0"}, {"--values", "capacity 0"}},
      {{"--param", "service-scale", "--values", "1,0"}, {"--values", "service-scale 0"}},
      {{"--param", "arrival-scale", "--values", "1,-2"}, {"--values", "arrival-scale -2"}},
      {{"--param", "obsolescence-scale", "--values", "1,-0.5"},
       {"--values", "obsolescence-scale -0.5"}},
      {{"--param", "costs.loss", "--values", "1,-3"}, {"--values", "costs.loss -3"}},
      {{"--param", "costs.robot", "--values", "1e400"}, {"--values", "1e400"}},
      {{"--param", "capacity"}, {"--values"}},
      {{"--values", "1,2"}, {"--param"}},
      {{"--param", "capacity", "--values", "1,2", "--threads", "-1"}, {"--threads", "-1"}},
      // Too large for the exact engine: refused before the first solve, with no partial output (the
      // full chain: lumped, K = 60 is 242 states).
      {{"--param", "capacity", "--values", "1,2,60", "--full-chain"},
       {"--values", "capacity 60", "largest capacity"}},
      {{"--param", "capacity", "--values", "1", "--csv", "/nonexistent-crawlq-dir/x.csv"},
       {"--csv", "/nonexistent-crawlq-dir/x.csv"}},
  };
  for (const Case& c : cases) {
    for (const bool as_json : {true, false}) {
      std::vector<std::string> args{"sweep", file};
      args.insert(args.end(), c.args.begin(), c.args.end());
      if (as_json) args.push_back("--json");
      check_refused(crawlq(args), c.fragments);
    }
  }
}

TEST_CASE("sweep --param obsolescence-scale on a file without obsolescence is refused",
          "[cli][sweep][bad-input]") {
  TempDirectory dir;
  const std::string file = dir.write(
      "never-stale.yaml",
      replace_once(read_text(shipped("paper-example-1.yaml")),
                   "obsolescence: {gamma: [0.3, 0.7], Gamma: [[-0.6, 0.4], [0.1, -0.3]]}\n", ""));
  // The file itself is fine, and other parameters sweep on it.
  const json j = sweep_json(file, "service-scale", "1");
  CHECK(j.at("rows")[0].at("mean_obsolescence_time").is_null());
  CHECK(j.at("rows")[0].at("p_obsolete").get<double>() == 0);
  check_refused(crawlq({"sweep", file, "--param", "obsolescence-scale", "--values", "2", "--json"}),
                {"never-stale.yaml", "--param", "obsolescence-scale"});
}

TEST_CASE("sweep: a refused scenario file is refused as by every command",
          "[cli][sweep][bad-input]") {
  TempDirectory dir;
  const std::string file = dir.write(
      "bad-s.yaml", replace_once(kThreeModes, "S: [[-3, 1], [2, -3]]", "S: [[-3, -1], [2, -3]]"));
  check_refused(crawlq({"sweep", file, "--param", "capacity", "--values", "1,2", "--json"}),
                {"bad-s.yaml", "service.S row 0", "-1"});
}

}  // namespace
}  // namespace crawlq::cli_test

namespace crawlq::cli_test {
namespace {

TEST_CASE(
    "sweep --plot: the costs against the value drawn as SVG, and a name not ending in .svg is refused",
    "[cli][sweep][plot]") {
  TempDirectory dir;
  const std::string svg = (dir.path() / "costs.svg").string();
  const ProcessResult run = crawlq({"sweep", shipped("paper-example-1.yaml"), "--param", "capacity",
                                    "--values", "2,3,4", "--plot", svg});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(read_text(svg), Catch::Contains("<svg") && Catch::Contains("4 robots always"));
  CHECK_THAT(read_text((dir.path() / "costs.gp").string()),
             Catch::Contains("best threshold policy C*"));
  const ProcessResult bad = crawlq({"sweep", shipped("paper-example-1.yaml"), "--param", "capacity",
                                    "--values", "2", "--plot", svg + ".png"});
  CHECK(bad.exit_status == 2);
  CHECK(bad.out.empty());
  CHECK_THAT(bad.err, Catch::Contains("--plot"));
}

}  // namespace
}  // namespace crawlq::cli_test

namespace crawlq::cli_test {
namespace {

TEST_CASE("sweep --class: each value's best of the class, never above the threshold optimum",
          "[cli][sweep][markov]") {
  const ProcessResult run =
      crawlq({"sweep", shipped("paper-example-1.yaml"), "--param", "obsolescence-scale", "--values",
              "0.5,2", "--class", "markov", "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const nlohmann::json swept = json_of(run);  // kept: the loop below reads into it
  for (const auto& row : swept.at("rows")) {
    const auto& best = row.at("class_best");
    CHECK(best.at("class") == "markov");
    CHECK(best.at("optimality") == "heuristic");  // the paper's sojourn weight
    CHECK(best.at("cost").get<double>() <= row.at("best").at("cost").get<double>() * (1 + 1e-12));
  }
  const ProcessResult bad = crawlq({"sweep", shipped("paper-example-1.yaml"), "--param", "capacity",
                                    "--values", "3", "--class", "fullstate"});
  CHECK(bad.exit_status == 2);
  CHECK_THAT(bad.err,
             Catch::Contains("--class: unknown class 'fullstate'") && Catch::Contains("markov"));
}

}  // namespace
}  // namespace crawlq::cli_test

TEST_CASE("sweep's table: every column under its heading, whatever the parameter's name",
          "[cli][sweep]") {
  const crawlq::cli_test::ProcessResult run =
      crawlq::cli_test::crawlq({"sweep", crawlq::cli_test::shipped("paper-example-1.yaml"),
                                "--param", "arrival-scale", "--values", "0.9,1.1"});
  REQUIRE(run.exit_status == 0);
  std::istringstream lines(run.out);
  std::string header, row;
  for (std::string line; std::getline(lines, line);)
    if (line.find("robots per level") != std::string::npos) {
      header = line;
      std::getline(lines, row);
      break;
    }
  REQUIRE(!header.empty());
  INFO(header << "\n" << row);
  // The right-aligned columns end where their headings end: the value, the cost and P_loss.
  const auto end_of = [](const std::string& line, const std::string& word, std::size_t from = 0) {
    return line.find(word, from) + word.size();
  };
  CHECK(end_of(header, "arrival-scale") == end_of(row, "0.9"));
  CHECK(end_of(header, "C*") == end_of(row, "70.2816"));
  CHECK(end_of(header, "P_loss") == end_of(row, "0.1487"));
  // The left-aligned ones start under theirs.
  CHECK(header.find("thresholds") == row.find("-1,2,2"));
  CHECK(header.find("robots per level") == row.find("3 3 3 1 1 1"));
}
