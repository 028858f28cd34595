// The JSON of every command on the shipped scenarios, as it was when tests/cli/json_snapshots/ was
// captured: a refactoring changes no number, key or exit status. The runs are listed once, in
// runs.txt, for this test and for the `capture` script that rewrote the snapshots; `seconds` keys
// time the run and are left out. Numbers compare exactly.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

const std::string kSnapshots = std::string(CRAWLQ_SOURCE_DIR) + "/tests/cli/json_snapshots";

struct SnapshotRun {
  std::string name;
  std::vector<std::string> args;
};

std::vector<SnapshotRun> snapshot_runs() {
  std::ifstream in(kSnapshots + "/runs.txt");
  std::vector<SnapshotRun> runs;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto colon = line.find(':');
    SnapshotRun run{line.substr(0, colon), {}};
    std::istringstream words(line.substr(colon + 1));
    for (std::string word; words >> word;)
      run.args.push_back(word[0] == '@' ? "scenarios/data/" + word.substr(1) : word);
    runs.push_back(std::move(run));
  }
  return runs;
}

json without_seconds(const json& j) {
  if (j.is_object()) {
    json out = json::object();
    for (const auto& [key, value] : j.items())
      if (key != "seconds") out[key] = without_seconds(value);
    return out;
  }
  if (j.is_array()) {
    json out = json::array();
    for (const auto& value : j) out.push_back(without_seconds(value));
    return out;
  }
  return j;
}

// File names print as written, so the runs start in the source tree's root as `capture` does.
class WorkingDirectory {
 public:
  explicit WorkingDirectory(const std::filesystem::path& to) : before_(std::filesystem::current_path()) {
    std::filesystem::current_path(to);
  }
  ~WorkingDirectory() { std::filesystem::current_path(before_); }

 private:
  std::filesystem::path before_;
};

}  // namespace

TEST_CASE("every command's JSON on the shipped scenarios is as captured", "[cli][snapshot]") {
  const std::vector<SnapshotRun> runs = snapshot_runs();
  REQUIRE(runs.size() >= 20);
  const WorkingDirectory root(CRAWLQ_SOURCE_DIR);
  for (const SnapshotRun& run : runs) {
    INFO("snapshot " << run.name << " (tests/cli/json_snapshots/capture rewrites it)");
    std::ifstream file(kSnapshots + "/" + run.name + ".json");
    REQUIRE(file);
    const json expected = json::parse(file);
    const ProcessResult result = crawlq(run.args, std::chrono::seconds(60));
    CHECK(result.exit_status == expected.at("exit_status").get<int>());
    const json output = without_seconds(json::parse(result.out));
    if (output == expected.at("output")) continue;
    // The first differing place, not two pages of JSON.
    const json patch = json::diff(expected.at("output"), output);
    FAIL_CHECK("differs from the snapshot: " << patch.dump().substr(0, 2000));
  }
}

}  // namespace crawlq::cli_test
