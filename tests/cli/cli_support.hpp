#pragma once
// What every command-line test shares: running crawlq, scratch scenario files, parsing stdout, and
// the few scenario facts (capacity, costs) a test recomputes the app's numbers from.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli/process.hpp"

namespace crawlq::cli_test {

// `crawlq args...` with the binary this build made, killed after `limit`.
ProcessResult crawlq(const std::vector<std::string>& args,
                     std::chrono::milliseconds limit = std::chrono::seconds(30));

// A shipped scenario: scenarios/data/<name>.
std::string shipped(const std::string& name);
inline const std::vector<std::string> kShippedScenarios{
    "paper-example-1.yaml", "paper-real-data.yaml", "teaching-two-robots.yaml"};

// The run in a few lines, for INFO: command, exit status, stdout (shortened) and stderr.
std::string report(const ProcessResult& run);

// "a,b,c", as the policy flags take lists.
std::string comma_list(const std::vector<int>& values);

// stdout as one JSON document; fails the test case when it is anything else.
nlohmann::json json_of(const ProcessResult& run);
// Whether a JSON key times the run ("seconds", a part "seconds_...", "events_per_second"): such
// keys differ between any two runs.
bool timing_key(const std::string& key);
// `j` without its timing keys, at any depth.
nlohmann::json without_timing(const nlohmann::json& j);

// Exit 2, not a signal, nothing on stdout, one line on stderr holding every fragment.
void check_refused(const ProcessResult& run, const std::vector<std::string>& fragments);

// The lines of `text`, without their newlines.
std::vector<std::string> lines_of(const std::string& text);

// The numeric keys of `solve --json` (interface.md), scalars then per-level and per-mode lists.
inline const std::vector<std::string> kScalarMeasures{"lambda",
                                                      "p_loss",
                                                      "p_obsolete",
                                                      "p_served",
                                                      "p_starvation",
                                                      "mean_active_robots",
                                                      "mean_sojourn",
                                                      "mean_sojourn_served",
                                                      "mean_sojourn_obsolete",
                                                      "cost"};
inline const std::vector<std::string> kListMeasures{"level_probabilities", "mode_probabilities"};

// |a - b| <= tolerance * max(1, |a|).
bool nearly_equal(double a, double b, double tolerance);
// Every measure of two `solve --json` outputs agrees within `tolerance` (relative above 1).
void check_same_measures(const nlohmann::json& a, const nlohmann::json& b, double tolerance);

// A fresh directory under the system's temporary directory, removed with everything in it.
class TempDirectory {
 public:
  TempDirectory();
  ~TempDirectory();
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Writes `text` to path()/name and returns the file's path.
  std::string write(const std::string& name, const std::string& text) const;

 private:
  std::filesystem::path path_;
};

// A scenario by name: one of the test scenarios below ("three-modes.yaml", "two-modes.yaml",
// "level-map-wins.yaml", "single-arrivals.yaml") written into `dir`, else a shipped one. Test
// cases GENERATE names, not paths: a generated value outlives the TempDirectory of its first run.
std::string scenario_file(const TempDirectory& dir, const std::string& name);

std::string read_text(const std::string& path);
// `text` with the first `from` replaced by `to`; fails the test case when `from` is absent.
std::string replace_once(std::string text, const std::string& from, const std::string& to);

// The costs of criterion (2) as a scenario file gives them; an absent cost is 0.
struct FileCosts {
  double loss = 0, obsolescence = 0, sojourn = 0, robot = 0, starvation = 0, holding = 0;
};
FileCosts read_costs(const std::string& file);
int read_capacity(const std::string& file);

// Small scenarios written for these tests (rates checked to sum to zero by hand).
// Three per-mode BMAPs with batches of up to two pages, K = 3, policy thresholds [0, 2].
extern const char* const kThreeModes;
// Two per-mode BMAPs with batches, K = 3, no policy.
extern const char* const kTwoModes;
// Two Poisson modes, the two-robot one the slower, K = 3, no policy: the level map 1,1,1,2 beats
// every threshold policy (robots never increase with the level in the threshold class).
extern const char* const kLevelMapWins;
// Two modes of single arrivals (every D_k with k >= 2 absent), K = 4: the QBD solver applies.
extern const char* const kSingleArrivals;

}  // namespace crawlq::cli_test
