#include "tests/cli/cli_support.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

namespace crawlq::cli_test {

ProcessResult crawlq(const std::vector<std::string>& args, std::chrono::milliseconds limit) {
  std::vector<std::string> argv{CRAWLQ_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, limit);
}

std::string shipped(const std::string& name) {
  return std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data/" + name;
}

std::string report(const ProcessResult& run) {
  constexpr std::size_t kShown = 2000;
  std::string out = run.out.size() > kShown ? run.out.substr(0, kShown) + "\n[...]" : run.out;
  std::ostringstream text;
  text << "$ " << run.command << "\nexit status " << run.exit_status
       << (run.signaled ? " (killed by a signal)" : "")
       << (run.timed_out ? " (ran past the time limit)" : "") << "\n--- stdout ---\n"
       << out << "\n--- stderr ---\n"
       << run.err;
  return text.str();
}

std::string comma_list(const std::vector<int>& values) {
  std::ostringstream text;
  for (std::size_t i = 0; i < values.size(); ++i) text << (i ? "," : "") << values[i];
  return text.str();
}

bool timing_key(const std::string& key) {
  return key == "seconds" || key.rfind("seconds_", 0) == 0 || key == "events_per_second";
}

nlohmann::json without_timing(const nlohmann::json& j) {
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : j.items())
      if (!timing_key(key)) out[key] = without_timing(value);
    return out;
  }
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& value : j) out.push_back(without_timing(value));
    return out;
  }
  return j;
}

nlohmann::json json_of(const ProcessResult& run) {
  INFO(report(run));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(run.out);  // the whole of stdout: trailing text is an error
  } catch (const nlohmann::json::exception& e) {
    FAIL("stdout is not one JSON document: " << e.what());
  }
  return j;
}

bool nearly_equal(double a, double b, double tolerance) {
  return std::abs(a - b) <= tolerance * std::max(1.0, std::abs(a));
}

void check_same_measures(const nlohmann::json& a, const nlohmann::json& b, double tolerance) {
  for (const auto& key : kScalarMeasures) {
    INFO(key << ": " << a.at(key) << " vs " << b.at(key));
    CHECK(nearly_equal(a.at(key).get<double>(), b.at(key).get<double>(), tolerance));
  }
  for (const auto& key : kListMeasures) {
    INFO(key << ": " << a.at(key) << " vs " << b.at(key));
    REQUIRE(a.at(key).size() == b.at(key).size());
    for (std::size_t i = 0; i < a.at(key).size(); ++i)
      CHECK(nearly_equal(a.at(key)[i].get<double>(), b.at(key)[i].get<double>(), tolerance));
  }
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TempDirectory::TempDirectory() {
  std::string pattern = (std::filesystem::temp_directory_path() / "crawlq-cli-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) FAIL("mkdtemp failed for " << pattern);
  path_ = pattern;
}

TempDirectory::~TempDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string TempDirectory::write(const std::string& name, const std::string& text) const {
  const std::filesystem::path file = path_ / name;
  std::ofstream out(file);
  out << text;
  out.close();
  if (!out) FAIL("cannot write " << file);
  return file.string();
}

std::string scenario_file(const TempDirectory& dir, const std::string& name) {
  if (name == "three-modes.yaml") return dir.write(name, kThreeModes);
  if (name == "two-modes.yaml") return dir.write(name, kTwoModes);
  if (name == "level-map-wins.yaml") return dir.write(name, kLevelMapWins);
  if (name == "single-arrivals.yaml") return dir.write(name, kSingleArrivals);
  return shipped(name);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) FAIL("cannot read " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos) FAIL("the scenario text has no '" << from << "' to replace");
  return text.replace(at, from.size(), to);
}

FileCosts read_costs(const std::string& file) {
  const YAML::Node costs = YAML::LoadFile(file)["costs"];
  FileCosts c;
  if (!costs) return c;
  const auto read = [&](const char* key, double& into) {
    if (costs[key]) into = costs[key].as<double>();
  };
  read("loss", c.loss);
  read("obsolescence", c.obsolescence);
  read("sojourn", c.sojourn);
  read("robot", c.robot);
  read("starvation", c.starvation);
  read("holding", c.holding);
  return c;
}

int read_capacity(const std::string& file) { return YAML::LoadFile(file)["capacity"].as<int>(); }

const char* const kThreeModes = R"(name: cli-three-modes
capacity: 3
admission: partial
arrivals:
  kind: per-mode
  modes:
    - D: [[[-2, 1], [0.5, -1.5]], [[0.5, 0.5], [0.5, 0.5]]]
    - D: [[[-4, 1], [0.5, -3]], [[1, 1], [1, 0.5]], [[0.5, 0.5], [0.5, 0.5]]]
    - D: [[[-6, 2], [1, -5]], [[1, 1], [1, 1]], [[1, 1], [1, 1]]]
service: {beta: [0.4, 0.6], S: [[-3, 1], [2, -3]]}
obsolescence: {gamma: [0.3, 0.7], Gamma: [[-0.6, 0.4], [0.1, -0.3]]}
costs: {loss: 5, obsolescence: 10, sojourn: 2, robot: 20, starvation: 300}
policy:
  thresholds: [0, 2]
)";

const char* const kTwoModes = R"(name: cli-two-modes
capacity: 3
arrivals:
  kind: per-mode
  modes:
    - D: [[[-1.5, 0.5], [0.2, -0.7]], [[0.6, 0.2], [0.1, 0.2]], [[0.1, 0.1], [0.1, 0.1]]]
    - D: [[[-4, 1], [0.5, -3]], [[1, 1], [1, 0.5]], [[0.5, 0.5], [0.5, 0.5]]]
service: {beta: [1, 0], S: [[-4, 2], [0, -3]]}
obsolescence: {gamma: [1], Gamma: [[-0.5]]}
costs: {loss: 8, obsolescence: 4, sojourn: 1, robot: 3, starvation: 40}
)";

const char* const kLevelMapWins = R"(name: cli-level-map-wins
capacity: 3
arrivals:
  kind: per-mode
  modes:
    - D: [[[-1]], [[1]]]
    - D: [[[-0.75]], [[0.75]]]
service: {beta: [1], S: [[-2]]}
obsolescence: {gamma: [1], Gamma: [[-0.5]]}
costs: {loss: 10, obsolescence: 1, sojourn: 1, robot: 1, starvation: 10}
)";

const char* const kSingleArrivals = R"(name: cli-single-arrivals
capacity: 4
arrivals:
  kind: per-mode
  modes:
    - D: [[[-1.5, 0.5], [0.25, -1]], [[0.75, 0.25], [0.25, 0.5]]]
    - D: [[[-3, 1], [0.5, -2]], [[1.5, 0.5], [0.5, 1]]]
service: {beta: [0.5, 0.5], S: [[-2, 0.5], [0.5, -3]]}
obsolescence: {gamma: [1, 0], Gamma: [[-0.4, 0.1], [0, -0.2]]}
costs: {loss: 3, obsolescence: 6, sojourn: 1, robot: 4, starvation: 30}
policy:
  thresholds: [1]
)";

void check_refused(const ProcessResult& run, const std::vector<std::string>& fragments) {
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK_FALSE(run.signaled);
  CHECK_FALSE(run.timed_out);
  CHECK(run.out.empty());
  CHECK(lines_of(run.err).size() == 1u);
  for (const auto& fragment : fragments) {
    INFO("the message should contain '" << fragment << "'");
    CHECK_THAT(run.err, Catch::Contains(fragment));
  }
}

}  // namespace crawlq::cli_test
