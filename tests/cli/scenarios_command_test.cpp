// `crawlq scenarios --json`: where the shipped files are and what each log entry says, against the
// source tree the build copied them from (the scenario entries are checked by
// tests/install/test_shipped_names.py).
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json scenarios_json() {
  const ProcessResult run = crawlq({"scenarios", "--json"});
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  return json_of(run);
}

TEST_CASE("scenarios --json: the directory above every path, as the build tree lays it out",
          "[cli][scenarios]") {
  const json j = scenarios_json();
  // shipped_files.hpp: in a build tree the files sit in share/crawlq beside the program's folder
  // (build/app/crawlq, build/share/crawlq); /proc/self/exe resolves links, so the oracle does too.
  const fs::path expected =
      fs::canonical(CRAWLQ_BINARY).parent_path().parent_path() / "share" / "crawlq";
  const std::string directory = j.at("directory").get<std::string>();
  CHECK(directory == expected.string());
  REQUIRE(j.at("scenarios").size() > 0);
  for (const auto& s : j.at("scenarios")) {
    INFO(s.dump());
    const std::string name = s.at("name").get<std::string>();
    CHECK(s.at("path").get<std::string>() ==
          (fs::path(directory) / "scenarios" / (name + ".yaml")).string());
  }
  REQUIRE(j.at("logs").size() > 0);
  for (const auto& l : j.at("logs")) {
    INFO(l.dump());
    const std::string name = l.at("name").get<std::string>();
    CHECK(l.at("path").get<std::string>() ==
          (fs::path(directory) / "logs" / (name + ".log")).string());
  }
}

TEST_CASE("scenarios --json: each shipped log listed as a log, its copy and its timestamp count",
          "[cli][scenarios]") {
  const json j = scenarios_json();
  // The logs of the source tree, by hand: the build copies every scenarios/logs/*.log.
  std::vector<std::string> source_logs;
  for (const auto& entry :
       fs::directory_iterator(fs::path(CRAWLQ_SOURCE_DIR) / "scenarios" / "logs"))
    if (entry.path().extension() == ".log") source_logs.push_back(entry.path().stem().string());
  std::sort(source_logs.begin(), source_logs.end());
  std::vector<std::string> listed;
  for (const auto& l : j.at("logs")) listed.push_back(l.at("name").get<std::string>());
  CHECK(listed == source_logs);
  for (const auto& l : j.at("logs")) {
    INFO(l.dump());
    const std::string name = l.at("name").get<std::string>();
    CHECK(l.at("kind") == "log");
    const std::string source = std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/logs/" + name + ".log";
    const std::string path = l.at("path").get<std::string>();
    CHECK(fs::path(path).filename() == name + ".log");
    CHECK(read_text(path) == read_text(source));  // byte for byte the shipped file
    // A log has no comment lines: its summary counts the source's timestamps, one a line.
    const std::string text = read_text(source);
    const auto timestamps = std::count(text.begin(), text.end(), '\n');
    CHECK(l.at("summary") == "a crawler log of " + std::to_string(timestamps) +
                                 " timestamps, for `crawlq fit arrivals`");
  }
}

}  // namespace
}  // namespace crawlq::cli_test
