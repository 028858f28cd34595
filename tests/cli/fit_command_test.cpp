// `crawlq fit`: the keys of interface.md, refusals with the line, and a fitted scenario that
// solves.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <random>
#include <sstream>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

// A log with correlation: two regimes of Erlang-5 times (means 500 and 100) switching with
// probability 0.04, batches of 1-3 pages, one stop of the crawler in the middle.
std::string correlated_log() {
  std::mt19937_64 engine(7);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::ostringstream out;
  out.precision(17);
  double t = 0;
  int regime = 0;
  for (int i = 0; i < 8000; ++i) {
    const double mean = regime == 0 ? 500 : 100;
    for (int k = 0; k < 5; ++k) t += -std::log(1 - uniform(engine)) * mean / 5;
    const double u = uniform(engine);
    const int size = u < 0.5 ? 1 : (u < 0.8 ? 2 : 3);
    for (int j = 0; j < size; ++j) out << t + 1e-9 * j * t << '\n';
    if (uniform(engine) < 0.04) regime = uniform(engine) < 0.5 ? 0 : 1;
    if (i == 4000) t += 1e7;
  }
  return out.str();
}

TEST_CASE(
    "fit arrivals: the contract's keys, the log's statistics beside the fit's, a scenario that solves",
    "[cli][fit]") {
  TempDirectory dir;
  const std::string log = dir.write("crawler.log", correlated_log());
  const std::string out = (dir.path() / "fitted.yaml").string();
  const auto run = crawlq({"fit", "arrivals", log, "--scenario", shipped("paper-example-1.yaml"),
                           "--out", out, "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const nlohmann::json j = json_of(run);
  for (const char* key : {"units", "batches", "censored", "batch_gap", "censor_gap",
                          "size_probabilities", "sample", "fitted"})
    CHECK(j.contains(key));
  CHECK(j["batches"] == 8000);
  CHECK(j["censored"] == 1);
  CHECK(std::abs(j["size_probabilities"][0].get<double>() - 0.5) < 0.03);
  CHECK(j.at("out") == out);  // the --out given; the scenario read below is the file it names
  const std::string written = j.at("out").get<std::string>();
  const auto& sample = j["sample"];
  const auto& fitted = j["fitted"];
  for (const char* key :
       {"mean", "variance", "scv", "lag_correlations", "phases", "log_likelihood", "D0", "D1"})
    CHECK(fitted.contains(key));
  CHECK(nearly_equal(fitted["mean"], sample["mean"], 1e-9));
  CHECK(nearly_equal(fitted["variance"], sample["variance"], 1e-9));
  CHECK(sample["lag_correlations"][0].get<double>() > 0.4);  // the log's correlation is high ...
  for (int k = 0; k < 6; ++k)                                // ... and the fit keeps it, lag by lag
    CHECK(std::abs(fitted["lag_correlations"][k].get<double>() -
                   sample["lag_correlations"][k].get<double>()) < 0.05);
  // The scenario written solves, and describe finds the log's lag-1 correlation in its BMAP.
  const auto solved = crawlq({"solve", written, "--json"});
  INFO(report(solved));
  CHECK(solved.exit_status == 0);
  const auto described = json_of(crawlq({"describe", written, "--json"}));
  CHECK(std::abs(described["modes"][0]["lag1_correlation"].get<double>() -
                 sample["lag_correlations"][0].get<double>()) < 1e-9);
}

TEST_CASE("fit arrivals: a log a little out of order is read in time order, with a note",
          "[cli][fit]") {
  // Concurrent robots: inside a batch, a line stamped a fraction of a millisecond before the one
  // above it. Read in order, the fit is that of the sorted log.
  std::ostringstream shuffled, sorted;
  shuffled.precision(17);
  sorted.precision(17);
  std::mt19937_64 engine(5);
  std::exponential_distribution<double> gap(0.01);
  double t = 0;
  std::vector<double> times;
  for (int i = 0; i < 500; ++i) {
    t += gap(engine);
    times.insert(times.end(), {t, t + 0.0004, t + 0.0002});  // the third stamped before the second
  }
  for (const double x : times) shuffled << x << '\n';
  std::vector<double> in_order = times;
  std::sort(in_order.begin(), in_order.end());
  for (const double x : in_order) sorted << x << '\n';
  TempDirectory dir;
  const auto run = crawlq({"fit", "arrivals", dir.write("robots.log", shuffled.str()), "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const nlohmann::json j = json_of(run);
  CHECK(j["reordered"]["lines"] == 500);
  CHECK(j["reordered"]["largest_step_back"].get<double>() == Approx(0.0002).margin(1e-9));
  CHECK(j["reordered"]["line"].get<int>() >= 3);
  CHECK_THAT(run.err,
             Catch::Contains("sorted into time order: 500 lines came before a line above"));
  const nlohmann::json same =
      json_of(crawlq({"fit", "arrivals", dir.write("sorted.log", sorted.str()), "--json"}));
  CHECK_FALSE(same.contains("reordered"));
  CHECK(j["fitted"] == same["fitted"]);
  CHECK(j["batches"] == same["batches"]);
}

TEST_CASE("fit arrivals: a default batch gap of 0 is said, a given one is not", "[cli][fit]") {
  // Gaps from 0.5 to 1.5, with no split 100 times wide: batching is off by default.
  std::ostringstream log;
  log.precision(17);
  std::mt19937_64 engine(9);
  std::uniform_real_distribution<double> gap(0.5, 1.5);
  double t = 0;
  for (int i = 0; i < 400; ++i) log << (t += gap(engine)) << '\n';
  TempDirectory dir;
  const std::string file = dir.write("even.log", log.str());
  const auto run = crawlq({"fit", "arrivals", file});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.err, Catch::Contains("the batch gap is 0, so only deliveries at equal times make "
                                      "a batch; if the robots deliver in batches, give "
                                      "--batch-gap G"));
  CHECK(json_of(crawlq({"fit", "arrivals", file, "--json"})).contains("batch_gap_note"));
  const auto given = crawlq({"fit", "arrivals", file, "--batch-gap", "0", "--json"});
  CHECK_FALSE(json_of(given).contains("batch_gap_note"));
  CHECK(given.err.empty());
}

TEST_CASE("fit arrivals: batches a millisecond apart are found and the gap chosen is said",
          "[cli][fit]") {
  // Batch starts an exponential time of mean 5 apart, each batch of three pages 1 ms apart: the
  // shortest times between batches are 10 ms, no split is 100 times wide. A start within 20 ms of
  // the last page is no batch a log can tell apart: skipped.
  std::ostringstream log;
  log.precision(17);
  std::mt19937_64 engine(10);
  std::exponential_distribution<double> gap(0.2);
  double t = 0, last = -1;
  int batches = 0;
  while (batches < 1000) {
    t += gap(engine);
    if (t - last < 0.02) continue;
    ++batches;
    log << t << '\n' << t + 0.001 << '\n' << t + 0.002 << '\n';
    last = t + 0.002;
  }
  TempDirectory dir;
  const std::string file = dir.write("milli.log", log.str());
  const auto run = crawlq({"fit", "arrivals", file, "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const nlohmann::json j = json_of(run);
  CHECK(j["batches"] == 1000);
  CHECK(j["size_probabilities"].size() == 3);
  CHECK(j["size_probabilities"][2] == Approx(1));
  REQUIRE(j.contains("batch_gap_note"));
  CHECK_THAT(j["batch_gap_note"].get<std::string>(),
             Catch::Contains("cluster tightly at 0.001") && Catch::Contains("--batch-gap G"));
}

TEST_CASE("fit arrivals: broken logs are refused with the line", "[cli][fit]") {
  TempDirectory dir;
  check_refused(crawlq({"fit", "arrivals", dir.write("empty.log", "")}),
                {"empty.log", "0 timestamps"});
  check_refused(crawlq({"fit", "arrivals", dir.write("one.log", "12.5\n")}),
                {"one.log", "1 timestamp"});
  check_refused(
      crawlq({"fit", "arrivals", dir.write("unsorted.log", "1\n2\n3\n2.5\n"), "--strict-order"}),
      {"unsorted.log", "line 4", "2.5", "--strict-order"});
  check_refused(crawlq({"fit", "arrivals", dir.write("text.log", "1\n2\nhello\n")}),
                {"text.log", "line 3", "hello"});
  check_refused(crawlq({"fit", "arrivals", (dir.path() / "missing.log").string()}),
                {"missing.log", "cannot open"});
  check_refused(crawlq({"fit", "arrivals", dir.write("ok.log", "1\n2\n3\n"), "--batch-gap", "-1"}),
                {"--batch-gap", "-1"});
  check_refused(crawlq({"fit", "arrivals", dir.write("ok2.log", "1\n2\n3\n"), "--out", "x.yaml"}),
                {"--scenario"});
}

TEST_CASE("fit service: three moments matched, --mean rescales, the contract's keys",
          "[cli][fit]") {
  const auto run = crawlq({"fit", "service", "--moments", "1,3,15", "--mean", "8.2", "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const nlohmann::json j = json_of(run);
  for (const char* key : {"sample", "fitted", "beta", "S", "phases"}) CHECK(j.contains(key));
  // The order at the top (the contract's "phases"), the size of beta and S.
  CHECK(j["phases"] == j["beta"].size());
  CHECK(j["phases"] == j["S"].size());
  CHECK(j["phases"] == j["fitted"]["phases"]);
  CHECK(j["fitted"]["log_likelihood"].is_null());
  const auto& m = j["fitted"]["moments"];
  CHECK(nearly_equal(m[0], 8.2, 1e-9));
  CHECK(nearly_equal(m[1], 3 * 8.2 * 8.2, 1e-9));
  CHECK(nearly_equal(m[2], 15 * 8.2 * 8.2 * 8.2, 1e-9));
  TempDirectory dir;
  std::ostringstream sample;
  std::mt19937_64 engine(3);
  std::gamma_distribution<double> gamma(2.5, 0.4);
  for (int i = 0; i < 2000; ++i) sample << gamma(engine) << '\n';
  const auto fitted =
      json_of(crawlq({"fit", "obsolescence", dir.write("times.txt", sample.str()), "--json"}));
  CHECK(fitted["fitted"]["log_likelihood"].is_number());
  CHECK(nearly_equal(fitted["fitted"]["moments"][2], fitted["sample"]["moments"][2], 1e-9));
  check_refused(crawlq({"fit", "service", "--moments", "1,1,1"}), {"--moments", "m2"});
  check_refused(crawlq({"fit", "service", "--moments", "1,2"}), {"--moments", "three"});
  check_refused(crawlq({"fit", "service", dir.write("bad.txt", "1\n-2\n")}), {"bad.txt", "line 2"});
  check_refused(crawlq({"fit", "service"}), {"SAMPLE", "--moments"});
}

}  // namespace
}  // namespace crawlq::cli_test

namespace crawlq::cli_test {
namespace {

// Beside the scenarios, not among them: scenarios/data holds scenario files only.
const std::string kShippedLog = CRAWLQ_SOURCE_DIR "/scenarios/logs/synthetic-crawler.log";

TEST_CASE(
    "fit arrivals --out: a file named and sourced as a fit of the log, read back without notes",
    "[cli][fit]") {
  TempDirectory dir;
  const std::string out = (dir.path() / "fitted.yaml").string();
  const auto fitted = crawlq({"fit", "arrivals", kShippedLog, "--scenario",
                              shipped("paper-real-data.yaml"), "--out", out});
  INFO(report(fitted));
  REQUIRE(fitted.exit_status == 0);
  const std::string text = read_text(out);
  CHECK_THAT(text, Catch::Contains("\"name\": \"paper-real-data-fitted\""));
  CHECK_THAT(text, Catch::Contains("\"source\": \"arrivals fitted to " + kShippedLog));
  CHECK_THAT(text, Catch::Contains("the log's times are read in"));
  // Every D_0 diagonal as the loader recomputes it: no "repaired" note about crawlq's own file.
  const auto solved = crawlq({"solve", out, "--json"});
  INFO(report(solved));
  CHECK(solved.exit_status == 0);
  CHECK_THAT(solved.err, !Catch::Contains("repaired"));
  CHECK_THAT(fitted.err, !Catch::Contains("every mode offers more pages"));
}

TEST_CASE("fit arrivals: a fitted load the indexer cannot carry under any policy is said",
          "[cli][fit]") {
  // Deliveries about 10 a unit of time against teaching-two-robots' indexer, which serves 2.
  std::mt19937_64 engine(3);
  std::exponential_distribution<double> gap(10.0);
  std::ostringstream log;
  log.precision(17);
  double t = 0;
  for (int i = 0; i < 4000; ++i) log << (t += gap(engine)) << '\n';
  TempDirectory dir;
  const std::string out = (dir.path() / "busy.yaml").string();
  const auto run = crawlq({"fit", "arrivals", dir.write("busy.log", log.str()), "--scenario",
                           shipped("teaching-two-robots.yaml"), "--batch-gap", "0", "--out", out});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK_THAT(run.err, Catch::Contains("every mode offers more pages than the indexer serves"));
  CHECK_THAT(run.err, Catch::Contains("the log's times are in the scenario's unit of time"));
}

TEST_CASE("fit arrivals: the shipped crawler log, fitted back and optimised", "[cli][fit]") {
  // scenarios/logs/synthetic-crawler.log (examples/synthetic_crawler_log.cpp): regimes of mean 400
  // s and 60 s, Erlang-4 times, kept after a batch with probability 0.97 + 0.03/2, batches of 1-4
  // pages.
  TempDirectory dir;
  const std::string out = (dir.path() / "my-crawler.yaml").string();
  const auto fitted = crawlq({"fit", "arrivals", kShippedLog, "--scenario",
                              shipped("paper-real-data.yaml"), "--out", out, "--json"});
  INFO(report(fitted));
  REQUIRE(fitted.exit_status == 0);
  const nlohmann::json j = json_of(fitted);
  CHECK(j["batches"] == 6000);
  CHECK(j["censored"] == 1);                                      // the day's stop
  CHECK(std::abs(j["sample"]["mean"].get<double>() - 230) < 15);  // 0.5 x 400 + 0.5 x 60
  CHECK(std::abs(j["fitted"]["correlation_decay"].get<double>() - 0.97) < 0.02);
  CHECK(j["arrivals"]["modes"].size() == 4);  // the base scenario's four modes
  // The three figures, drawn by gnuplot (a Debian dependency) into a directory.
  const auto drawn = crawlq({"fit", "arrivals", kShippedLog, "--plot", dir.path().string()});
  INFO(report(drawn));
  CHECK(drawn.exit_status == 0);
  for (const char* figure : {"autocorrelation.svg", "batch-sizes.svg", "quantiles.svg"})
    CHECK(std::filesystem::file_size(dir.path() / figure) > 1000);
  // A directory that is not there yet is made (its parent must be).
  const auto made =
      crawlq({"fit", "arrivals", kShippedLog, "--plot", (dir.path() / "figures").string()});
  INFO(report(made));
  CHECK(made.exit_status == 0);
  CHECK(std::filesystem::file_size(dir.path() / "figures" / "quantiles.svg") > 1000);
  check_refused(crawlq({"fit", "arrivals", kShippedLog, "--plot",
                        (dir.path() / "no-such" / "figures").string()}),
                {"--plot", "not a directory"});
  check_refused(crawlq({"fit", "arrivals", kShippedLog, "--plot", dir.write("a-file.txt", "x")}),
                {"--plot", "not a directory"});
  // The quantiles of a Q-Q plot: the log's and the fit's at 1% .. 99%, each increasing.
  const auto& quantiles = j["quantiles"];
  REQUIRE(quantiles["fitted"].size() == 99);
  for (std::size_t q = 1; q < 99; ++q)
    CHECK(quantiles["fitted"][q].get<double>() > quantiles["fitted"][q - 1].get<double>());
  // Maximum likelihood from there: the generator's regimes (means 400 and 60, Erlang-4) found
  // again, more likely than the moments fit.
  const auto em = crawlq({"fit", "arrivals", kShippedLog, "--method", "em", "--json"});
  INFO(report(em));
  REQUIRE(em.exit_status == 0);
  const nlohmann::json e = json_of(em);
  CHECK_FALSE(e.contains("out"));  // no --out, no file
  CHECK(e["fitted"]["shape"] == 4);
  CHECK(std::abs(e["fitted"]["regime_means"][0].get<double>() - 400) < 40);
  CHECK(std::abs(e["fitted"]["regime_means"][1].get<double>() - 60) < 6);
  CHECK(e["fitted"]["log_likelihood"].get<double>() > j["fitted"]["log_likelihood"].get<double>());
  // --phases caps the order; what it costs is said.
  for (const int phases : {2, 4, 6}) {
    const nlohmann::json capped = json_of(
        crawlq({"fit", "arrivals", kShippedLog, "--phases", std::to_string(phases), "--json"}));
    CHECK(capped["fitted"]["phases"].get<int>() <= phases);
    CHECK(capped["fitted"].contains("note"));  // this log's regimes ask for more
    const nlohmann::json capped_em =
        json_of(crawlq({"fit", "arrivals", kShippedLog, "--phases", std::to_string(phases),
                        "--method", "em", "--json"}));
    CHECK(capped_em["fitted"]["phases"].get<int>() <= phases);
  }
  check_refused(crawlq({"fit", "arrivals", kShippedLog, "--phases", "0"}), {"--phases", "0"});
  const auto optimized = crawlq({"optimize", out, "--json"});
  INFO(report(optimized));
  CHECK(optimized.exit_status == 0);
  CHECK(json_of(optimized)["best"]["cost"].get<double>() > 0);
}

}  // namespace
}  // namespace crawlq::cli_test
