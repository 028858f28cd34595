// fit arrivals --bootstrap B --out DIR, then solve and optimize --ensemble DIR/bootstrap, as a user
// runs them: the files written and read back, the tables, the JSON, and every refusal naming its
// flag with nothing written. The numbers themselves are checked in tests/unit/api
// (fit_bootstrap_test.cpp against sampling theory, ensemble_test.cpp against each member alone).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

TEST_CASE("fit arrivals --bootstrap --out DIR: the point and B refits, each a scenario of the log",
          "[cli][bootstrap]") {
  const TempDirectory dir;
  const std::string out = (dir.path() / "fits").string();
  const ProcessResult run =
      crawlq({"fit", "arrivals", "synthetic-crawler", "--bootstrap", "4", "--seed", "9",
              "--scenario", shipped("paper-example-1.yaml"), "--out", out, "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  const json j = json_of(run);
  const json& b = j.at("bootstrap");
  CHECK(b.at("replicates") == 4);
  CHECK(b.at("seed") == 9);
  CHECK(b.at("out") == out + "/bootstrap");
  for (const char* key : {"mean", "scv", "batch_size_mean", "page_rate"}) {
    INFO(key);
    CHECK(b.at("standard_errors").at(key).get<double>() >= 0);
    CHECK(b.at("intervals").at(key).size() == 2);
    CHECK(b.at("point").at(key).get<double>() > 0);
  }
  CHECK(b.at("standard_errors").at("lag_correlations").size() == 6);
  CHECK(j.at("out") == out + "/fitted.yaml");
  for (const char* file : {"001.yaml", "002.yaml", "003.yaml", "004.yaml"}) {
    const std::string path = out + "/bootstrap/" + file;
    INFO(path);
    REQUIRE(std::filesystem::exists(path));
    // Each reads back with no note (stderr empty) and is named as a refit of the log.
    const ProcessResult described = crawlq({"describe", path, "--json"});
    CHECK(described.exit_status == 0);
    CHECK(described.err.empty());
    CHECK(json_of(described).at("name").get<std::string>().find("-fitted-bootstrap-") !=
          std::string::npos);
  }
  CHECK_FALSE(std::filesystem::exists(out + "/bootstrap/005.yaml"));
  // The same seed, the same refits.
  const std::string again = (dir.path() / "again").string();
  REQUIRE(crawlq({"fit", "arrivals", "synthetic-crawler", "--bootstrap", "4", "--seed", "9",
                  "--scenario", shipped("paper-example-1.yaml"), "--out", again})
              .exit_status == 0);
  CHECK(lines_of(crawlq({"describe", out + "/bootstrap/003.yaml", "--json"}).out) ==
        lines_of(crawlq({"describe", again + "/bootstrap/003.yaml", "--json"}).out));
}

TEST_CASE("fit arrivals --bootstrap: the table of standard errors, and refusals that write nothing",
          "[cli][bootstrap]") {
  const ProcessResult table = crawlq({"fit", "arrivals", "synthetic-crawler", "--bootstrap", "5"});
  INFO(report(table));
  REQUIRE(table.exit_status == 0);
  CHECK(table.out.find("bootstrap: 5 refits on resamples of the log's batches in blocks") !=
        std::string::npos);
  CHECK(table.out.find("pages per unit time") != std::string::npos);
  check_refused(crawlq({"fit", "arrivals", "synthetic-crawler", "--bootstrap", "-1"}),
                {"--bootstrap -1", "give 0 to"});
  const TempDirectory dir;
  const std::string taken = dir.write("keep.txt", "mine\n");
  check_refused(crawlq({"fit", "arrivals", "synthetic-crawler", "--bootstrap", "3", "--scenario",
                        shipped("paper-example-1.yaml"), "--out", dir.path().string()}),
                {"--out", "not empty"});
  check_refused(crawlq({"fit", "arrivals", "synthetic-crawler", "--bootstrap", "3", "--scenario",
                        shipped("paper-example-1.yaml"), "--out", taken}),
                {"--out", "not a directory"});
  const std::string deep = (dir.path() / "no" / "such").string();
  check_refused(crawlq({"fit", "arrivals", "synthetic-crawler", "--bootstrap", "3", "--scenario",
                        shipped("paper-example-1.yaml"), "--out", deep}),
                {"--out", "crawlq makes the last one only"});
  CHECK_FALSE(std::filesystem::exists(dir.path() / "no"));
}

TEST_CASE("solve and optimize --ensemble: the spread in a table and in the JSON",
          "[cli][ensemble]") {
  const std::string paper = shipped("paper-example-1.yaml");
  const TempDirectory dir;
  std::string text;
  {
    std::ifstream in(paper);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string cheap =
      dir.write("cheap.yaml", text.replace(text.find("robot: 20"), 9, "robot: 3.5"));
  const ProcessResult solved = crawlq({"solve", paper, "--ensemble", paper + "," + cheap});
  INFO(report(solved));
  REQUIRE(solved.exit_status == 0);
  CHECK(solved.out.find("over the ensemble (2 models") != std::string::npos);
  const json s = json_of(crawlq({"solve", paper, "--ensemble", paper + "," + cheap, "--json"}));
  CHECK(s.at("ensemble").at("members") == 2);
  CHECK(s.at("ensemble").at("measures").at("cost").at("max").get<double>() >
        s.at("ensemble").at("measures").at("cost").at("min").get<double>());
  const ProcessResult searched = crawlq({"optimize", paper, "--ensemble", paper + "," + cheap});
  INFO(report(searched));
  REQUIRE(searched.exit_status == 0);
  CHECK(searched.out.find("stability: this model's best is the best on 50.0% of the "
                          "models") != std::string::npos);
  CHECK(searched.out.find("<- this model's best") != std::string::npos);
  const json o = json_of(crawlq({"optimize", paper, "--ensemble", paper + "," + cheap, "--json"}));
  CHECK(o.at("ensemble").at("stability") == 0.5);
  CHECK(o.at("ensemble").at("regret").at("max").get<double>() > 0);
  // Refusals name the flag or the file, and nothing is printed on stdout.
  check_refused(crawlq({"solve", paper, "--ensemble", paper}), {"--ensemble", "two or more"});
  check_refused(crawlq({"optimize", paper, "--ensemble", dir.path().string() + "/empty"}),
                {"--ensemble"});
  check_refused(
      crawlq({"solve", paper, "--ensemble", paper + "," + dir.path().string() + "/x.yaml"}),
      {"x.yaml"});
}

}  // namespace
}  // namespace crawlq::cli_test
