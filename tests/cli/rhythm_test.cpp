// A scenario with a rhythm at the command line: solve's periodic regime as a table and as JSON (the
// keys of interface.md), describe's account of it, every bad rhythm refused naming its key, and
// every command that does not follow a rhythm yet refusing it rather than ignoring it.
#include <catch2/catch.hpp>
#include <cmath>
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
// Three pieces of 4 time units, quiet, busy, middling: small enough to optimise in a test.
constexpr const char* kThreePieces = "rhythm: {period: 12, scales: [0.5, 1.6, 0.9]}";

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

TEST_CASE("what does not follow a rhythm yet refuses it rather than ignore it", "[cli][rhythm]") {
  const TempDirectory dir;
  const std::string file = with_rhythm(dir, kDay);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"simulate", file, "--times", "1,2"},
           {"validate", file, "--times", "1,2"},
           {"optimize", file, "--class", "levels"},
           {"sweep", file, "--param", "capacity", "--values", "3,4", "--class", "markov"},
           {"solve", file, "--times", "1,2"},
           {"solve", file, "--sensitivity"},
           {"solve", file, "--sensitivity-rates"}}) {
    const ProcessResult run = crawlq(args);
    INFO(report(run));
    CHECK(run.exit_status == 2);
    CHECK_THAT(run.err, Catch::Contains("rhythm"));
    CHECK(run.out.empty());
  }
}

TEST_CASE(
    "optimize on a rhythm: one vector for the period and one per piece, exported as a "
    "policy by piece that solve reads back at the same cost",
    "[cli][rhythm]") {
  const TempDirectory dir;
  const std::string file = with_rhythm(dir, kThreePieces);
  const std::string exported = (dir.path() / "best.yaml").string();
  const ProcessResult run = crawlq({"optimize", file, "--json", "--export-policy", exported});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json j = json_of(run);
  REQUIRE(j.at("best").at("by_piece").size() == 3);
  CHECK(j.at("best").at("by_piece")[0].at("thresholds").size() == 3);
  const double per_piece = j.at("best").at("cost"), single = j.at("single").at("cost");
  CHECK(per_piece <= single);
  CHECK(j.at("single").at("thresholds").size() == 3);

  // The exported section pasted into the scenario in place of its policy.
  std::ifstream in(exported);
  const std::string section((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(section, Catch::Contains("by_piece:"));
  std::ifstream base(shipped("paper-example-1.yaml"));
  std::string text((std::istreambuf_iterator<char>(base)), std::istreambuf_iterator<char>());
  const std::size_t at = text.find("policy:");
  REQUIRE(at != std::string::npos);
  text = text.substr(0, at) + std::string(kThreePieces) + "\n" + section;
  const std::filesystem::path with_best = dir.path() / "with-best.yaml";
  std::ofstream(with_best) << text;
  const ProcessResult solved = crawlq({"solve", with_best.string(), "--json"});
  INFO(report(solved));
  REQUIRE(solved.exit_status == 0);
  CHECK(json_of(solved).at("cost").get<double>() == Approx(per_piece).epsilon(1e-9));
  CHECK(json_of(solved).at("policy").at("by_piece").size() == 3);
  // A policy given on the command line runs in every piece instead.
  const ProcessResult overridden =
      crawlq({"solve", with_best.string(), "--json", "--thresholds", "-1,2,2"});
  REQUIRE(overridden.exit_status == 0);
  CHECK_FALSE(json_of(overridden).at("policy").contains("by_piece"));
  // validate too: its exact side is the flag's policy in every piece.
  const ProcessResult validated = crawlq({"validate", with_best.string(), "--json", "--thresholds",
                                          "-1,2,2", "--replications", "4", "--precision", "0"});
  INFO(report(validated));
  REQUIRE(validated.exit_status == 0);
  // Held by name: a range over a member of a temporary would outlive it.
  const json validation = json_of(validated);
  for (const json& m : validation.at("scenarios")[0].at("measures"))
    if (m.at("name") == "cost" && !m.contains("piece"))
      CHECK(m.at("exact").get<double>() ==
            Approx(json_of(overridden).at("cost").get<double>()).epsilon(1e-12));

  const ProcessResult table = crawlq({"optimize", file});
  REQUIRE(table.exit_status == 0);
  CHECK_THAT(table.out, Catch::Contains("following the clock saves"));
}

TEST_CASE("a policy by piece is refused where it cannot run", "[cli][rhythm]") {
  const TempDirectory dir;
  const auto [lines, expected] = GENERATE(table<std::string, std::string>(
      {{"policy: {by_piece: [{thresholds: [-1, 2, 2]}]}", "needs a rhythm"},
       {"rhythm: {period: 4, scales: [1, 2]}\npolicy: {by_piece: [{thresholds: [-1, 2, 2]}, "
        "{thresholds: [0, 2, 2]}, {thresholds: [1, 2, 2]}]}",
        "3 policies for 2 pieces"},
       {"rhythm: {period: 4, scales: [1, 2]}\npolicy: {by_piece: []}", "empty"},
       {"rhythm: {period: 4, scales: [1, 2]}\npolicy: {by_piece: [{thresholds: [-1, 2, 2]}, "
        "{hysteresis: {high: 3, low: 1, switch_off: 4, switch_on: 1}}]}",
        "same states"},
       {"rhythm: {period: 4, scales: [1, 2]}\npolicy: {by_piece: [{thresholds: [-1, 9, 2]}]}",
        "policy.by_piece[0]"}}));
  std::ifstream base(shipped("paper-example-1.yaml"));
  std::string text((std::istreambuf_iterator<char>(base)), std::istreambuf_iterator<char>());
  text = text.substr(0, text.find("policy:")) + lines + "\n";
  const std::filesystem::path file = dir.path() / "by-piece.yaml";
  std::ofstream(file) << text;
  const ProcessResult run = crawlq({"solve", file.string()});
  INFO(lines << "\n" << report(run));
  CHECK(run.exit_status == 2);
  CHECK_THAT(run.err, Catch::Contains(expected));
}

TEST_CASE(
    "simulate and validate follow a rhythm: the period's averages, simulated and judged "
    "against solve's",
    "[cli][rhythm]") {
  const TempDirectory dir;
  const std::string file = with_rhythm(dir, "rhythm: {period: 6, scales: [0.5, 1.5, 1.1]}");
  const ProcessResult validated =
      crawlq({"validate", file, "--json", "--replications", "10", "--precision", "0"});
  INFO(report(validated));
  REQUIRE(validated.exit_status == 0);
  CHECK(json_of(validated).at("agrees") == true);
  const ProcessResult simulated = crawlq(
      {"simulate", file, "--json", "--replications", "4", "--precision", "0", "--seed", "3"});
  INFO(report(simulated));
  REQUIRE(simulated.exit_status == 0);
  const json j = json_of(simulated);
  // Whole periods from a period's start.
  const double horizon = j.at("horizon"), warmup = j.at("warmup");
  CHECK(std::fmod(horizon, 6.0) == Approx(0.0).margin(1e-9));
  CHECK(std::fmod(warmup, 6.0) == Approx(0.0).margin(1e-9));
}

TEST_CASE(
    "sweep on a rhythm: each row the periodic regime's, with a vector per piece, and the amplitude "
    "swept, refused where a piece's scale would not stay above 0 or there is no rhythm",
    "[cli][rhythm]") {
  const TempDirectory dir;
  const std::string file = with_rhythm(dir, kThreePieces);
  const std::string csv = (dir.path() / "rows.csv").string();
  const ProcessResult run = crawlq(
      {"sweep", file, "--param", "rhythm-amplitude", "--values", "0,1", "--json", "--csv", csv});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json j = json_of(run);
  CHECK(j.at("param") == "rhythm-amplitude");
  CHECK(j.at("rhythm").at("pieces") == 3);
  REQUIRE(j.at("rows").size() == 2);
  for (const json& row : j.at("rows")) {
    CHECK(row.at("by_piece").at("pieces").size() == 3);
    CHECK(row.at("by_piece").at("cost").get<double>() <= row.at("best").at("cost").get<double>());
    CHECK(row.at("saving").get<double>() >= 0);
  }
  // The file's own rhythm (amplitude 1) costs what optimize finds for it.
  const ProcessResult optimized = crawlq({"optimize", file, "--json"});
  REQUIRE(optimized.exit_status == 0);
  CHECK(j.at("rows")[1].at("by_piece").at("cost").get<double>() ==
        Approx(json_of(optimized).at("best").at("cost").get<double>()).epsilon(1e-9));
  CHECK(j.at("rows")[1].at("best").at("cost").get<double>() ==
        Approx(json_of(optimized).at("single").at("cost").get<double>()).epsilon(1e-9));
  std::ifstream rows(csv);
  std::string header;
  std::getline(rows, header);
  CHECK_THAT(header, Catch::Contains("by_piece_cost,by_piece_thresholds"));

  const ProcessResult table = crawlq({"sweep", file, "--param", "capacity", "--values", "4"});
  INFO(report(table));
  REQUIRE(table.exit_status == 0);
  CHECK_THAT(table.out, Catch::Contains("the best vector per piece"));

  // 1.0 + a (0.5 - 1.0) stays above 0 for a < 2 only.
  const ProcessResult wide =
      crawlq({"sweep", file, "--param", "rhythm-amplitude", "--values", "1,2.5"});
  CHECK(wide.exit_status == 2);
  CHECK_THAT(wide.err, Catch::Contains("rhythm-amplitude 2.5"));
  CHECK(wide.out.empty());
  const ProcessResult flat = crawlq(
      {"sweep", shipped("paper-example-1.yaml"), "--param", "rhythm-amplitude", "--values", "1"});
  CHECK(flat.exit_status == 2);
  CHECK_THAT(flat.err, Catch::Contains("no rhythm"));
}

TEST_CASE(
    "simulate and validate on a rhythm: each piece's estimates, and validate judging each "
    "piece's values beside the period's",
    "[cli][rhythm]") {
  const TempDirectory dir;
  const std::string file = with_rhythm(dir, kThreePieces);
  const ProcessResult simulated = crawlq(
      {"simulate", file, "--json", "--replications", "4", "--precision", "0", "--horizon", "600"});
  INFO(report(simulated));
  REQUIRE(simulated.exit_status == 0);
  const json s = json_of(simulated);
  CHECK(s.at("rhythm").at("pieces") == 3);
  REQUIRE(s.at("pieces").size() == 3);
  for (const json& piece : s.at("pieces")) {
    CHECK(piece.at("p_loss").contains("half_width"));
    const double lost = piece.at("p_loss").at("mean"),
                 served = piece.at("p_served_by_arrival").at("mean"),
                 stale = piece.at("p_obsolete_by_arrival").at("mean");
    // Of the pages offered in a piece, nearly all meet their fate within the run.
    CHECK(lost + served + stale == Approx(1).margin(0.02));
  }
  CHECK(s.at("pieces")[1].at("start") == 4.0);
  // The busiest piece loses more than the quietest.
  CHECK(s.at("pieces")[1].at("p_loss").at("mean").get<double>() >
        s.at("pieces")[0].at("p_loss").at("mean").get<double>());

  const ProcessResult validated = crawlq(
      {"validate", file, "--json", "--replications", "6", "--precision", "0", "--horizon", "600"});
  INFO(report(validated));
  REQUIRE(validated.exit_status == 0);
  std::size_t piece_values = 0;
  const json validation = json_of(validated);
  for (const json& m : validation.at("scenarios")[0].at("measures"))
    if (m.contains("piece")) {
      ++piece_values;
      CHECK(m.at("exact").is_number());
      CHECK(m.at("start").get<double>() == 4.0 * m.at("piece").get<double>());
    }
  CHECK(piece_values == 3 * 14);
  const ProcessResult table =
      crawlq({"validate", file, "--replications", "6", "--precision", "0", "--horizon", "600"});
  CHECK_THAT(table.out, Catch::Contains("each measure at its worst piece"));
  CHECK_THAT(table.out, Catch::Contains("P_loss, piece at"));
}
TEST_CASE("solve --plot on a rhythm: each piece's measures over the period, drawn by gnuplot",
          "[cli][rhythm][plot]") {
  const TempDirectory dir;
  const std::string file = with_rhythm(dir, kThreePieces);
  const std::string svg = (dir.path() / "day.svg").string();
  const ProcessResult run = crawlq({"solve", file, "--plot", svg});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.out, Catch::Contains("figure written to " + svg));
  const std::string script = read_text((dir.path() / "day.gp").string());
  CHECK_THAT(script, Catch::Contains("the period piece by piece (3 pieces of 4 time units)") &&
                         Catch::Contains("later stale") && Catch::Contains("arrival scale") &&
                         Catch::Contains("share of the pages offered in the piece"));
  // The scales as steps: each piece's start, and the last piece held to the period's end.
  CHECK_THAT(script, Catch::Contains("4 1.6") && Catch::Contains("12 0.9"));
  CHECK_THAT(read_text(svg), Catch::Contains("<svg"));
}

}  // namespace crawlq::cli_test
