// The JSON of every command on the shipped scenarios, as it was when tests/cli/json_snapshots/ was
// captured: a refactoring changes no number, key or exit status. The runs are listed once, in
// runs.txt, for this test and for the `capture` script that rewrote the snapshots; `seconds` keys
// time the run and are left out. Keys, array lengths, strings and integers compare exactly; other
// numbers within a relative 1e-12: the last bits of a floating result differ between processors
// and BLAS kernels (102.35224384960699 here is 102.35224384960702 on another machine), and a
// refactoring that changes a number changes it far more.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
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

// The one tolerance of every snapshot's floating numbers. A value within it of zero is zero: a
// residual or a correlation that cancels to 0 here is rounding noise (1e-17) elsewhere.
constexpr double kRelativeTolerance = 1e-12;

bool numbers_agree(double expected, double actual) {
  const double scale = std::max(std::abs(expected), std::abs(actual));
  return std::abs(expected - actual) <= kRelativeTolerance * scale || scale <= kRelativeTolerance;
}

// Where `actual` departs from `expected` ("/rows/3/cost: 1.5 here, 1.25 in the snapshot"), at most
// `most` places. Integers, strings, booleans, null, keys and array lengths must be equal.
void find_differences(const json& expected, const json& actual, const std::string& path,
                      std::vector<std::string>& found, std::size_t most) {
  if (found.size() >= most) return;
  const auto differ = [&](const std::string& what) {
    found.push_back((path.empty() ? "/" : path) + ": " + what);
  };
  if (expected.is_number_float() && actual.is_number_float()) {
    if (!numbers_agree(expected.get<double>(), actual.get<double>()))
      differ(actual.dump() + " here, " + expected.dump() + " in the snapshot");
    return;
  }
  if (expected.type() != actual.type() &&
      !(expected.is_number_integer() && actual.is_number_integer())) {
    differ(std::string(actual.type_name()) + " here, " + expected.type_name() + " in the snapshot");
    return;
  }
  if (expected.is_object()) {
    for (const auto& [key, value] : expected.items())
      if (!actual.contains(key)) differ("no key \"" + key + "\" here");
    for (const auto& [key, value] : actual.items()) {
      if (expected.contains(key))
        find_differences(expected.at(key), value, path + "/" + key, found, most);
      else
        differ("key \"" + key + "\" is not in the snapshot");
    }
    return;
  }
  if (expected.is_array()) {
    if (expected.size() != actual.size()) {
      differ(std::to_string(actual.size()) + " items here, " + std::to_string(expected.size()) +
             " in the snapshot");
      return;
    }
    for (std::size_t i = 0; i < expected.size(); ++i)
      find_differences(expected[i], actual[i], path + "/" + std::to_string(i), found, most);
    return;
  }
  if (expected != actual) differ(actual.dump() + " here, " + expected.dump() + " in the snapshot");
}

std::vector<std::string> differences(const json& expected, const json& actual) {
  std::vector<std::string> found;
  find_differences(expected, actual, "", found, 10);
  return found;
}

// File names print as written, so the runs start in the source tree's root as `capture` does.
class WorkingDirectory {
 public:
  explicit WorkingDirectory(const std::filesystem::path& to)
      : before_(std::filesystem::current_path()) {
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
    // Killed only when hung: the slowest run (reproduce --quick) takes 8 s here.
    const ProcessResult result = crawlq(run.args, std::chrono::seconds(300));
    CHECK(result.exit_status == expected.at("exit_status").get<int>());
    const json output = without_timing(json::parse(result.out));
    // The first differing places, not two pages of JSON.
    std::string listed;
    for (const std::string& place : differences(expected.at("output"), output))
      listed += "\n  " + place;
    if (!listed.empty()) FAIL_CHECK("differs from the snapshot:" << listed);
  }
}

TEST_CASE("snapshots: floating numbers agree to 1e-12 relative, everything else exactly",
          "[cli][snapshot]") {
  const auto agree = [](const char* expected, const char* actual) {
    return differences(json::parse(expected), json::parse(actual)).empty();
  };
  // Table 2 of `reproduce --quick` as two processors computed it.
  CHECK(agree(R"({"computed": 102.35224384960699})", R"({"computed": 102.35224384960702})"));
  CHECK(agree(R"([0.25, -3.0e-7])", R"([0.25000000000000006, -3.0000000000000004e-7])"));
  CHECK(agree(R"({"residual": 9.775057996335145e-18})", R"({"residual": 2.1e-16})"));
  CHECK(agree(R"({"lag1_correlation": 0.0})", R"({"lag1_correlation": -2.220446049250313e-16})"));
  CHECK_FALSE(agree(R"({"cost": 102.352243849607})", R"({"cost": 102.352243850607})"));
  CHECK_FALSE(agree(R"({"p_loss": 1e-6})", R"({"p_loss": 1.000001e-6})"));
  CHECK_FALSE(agree(R"({"thresholds": [-1, 2, 2]})", R"({"thresholds": [-1, 2, 3]})"));
  CHECK_FALSE(agree(R"({"states": 60})", R"({"states": 60.0})"));
  CHECK_FALSE(agree(R"({"method": "qbd"})", R"({"method": "direct"})"));
  CHECK_FALSE(agree(R"({"a": 1.0})", R"({"a": 1.0, "b": 2.0})"));
  CHECK_FALSE(agree(R"({"a": 1.0, "b": 2.0})", R"({"a": 1.0})"));
  CHECK_FALSE(agree(R"([1.0, 2.0])", R"([1.0])"));
  CHECK_FALSE(agree(R"({"best": null})", R"({"best": 0.0})"));
  const std::vector<std::string> found = differences(json::parse(R"({"rows": [{"cost": 1.25}]})"),
                                                     json::parse(R"({"rows": [{"cost": 1.5}]})"));
  REQUIRE(found.size() == 1);
  CHECK(found.front() == "/rows/0/cost: 1.5 here, 1.25 in the snapshot");
}

}  // namespace crawlq::cli_test
