// The command line's promise on files that are almost right (interface.md): every mutant of every
// shipped scenario is either answered (exit 0, stdout one JSON document whose numbers are all
// finite) or refused (exit 2, nothing on stdout, one line on stderr that starts with the file's
// path and names a key). Never another exit status, a signal, a sanitizer report, or a run past the
// time limit. Mutants come from a fixed seed (CRAWLQ_MUTATION_SEED overrides it, CRAWLQ_MUTANTS the
// count per scenario); a failing one is kept in mutation_failures/ of the build tree beside its
// command.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "tests/cli/cli_support.hpp"
#include "tests/cli/scenario_mutator.hpp"
#include "tests/sanitizer_budget.hpp"

namespace crawlq::cli_test {
namespace {

constexpr std::uint64_t kSeed = 20240611;
// Mutants per shipped scenario; every fourth also goes through simulate and optimize (and refresh).
const int kMutants = testing::budget(120, 8);
constexpr int kSubsetEvery = 4;
// A run past these limits hangs: each is ten times and more what the slowest run takes here on a
// loaded two-core machine (a solve of a 100,000-page buffer: 2 s; a search at 1,000 pages: 5 s), so
// that a slower machine or one busy with other work never fails the test. ASan and UBSan make
// crawlq a few times slower.
const std::chrono::seconds kTimeLimit{testing::budget(60, 240)};
const std::chrono::seconds kSearchTimeLimit{testing::budget(120, 480)};
// A threshold search's work grows with the buffer (a mutant's 100,000 pages: about 110 policies of
// 100,000 levels, 80 s here and minutes elsewhere), so mutants beyond this capacity are searched by
// no optimize: the test's work stays bounded by counts, not by a time limit. Their describe, solve,
// simulate and refresh still run.
constexpr double kMostSearchedCapacity = 1000;
// A runaway allocation fails fast instead of taking the machine (RLIMIT_AS; under ASan, its own
// hard_rss_limit_mb, since its shadow memory alone is terabytes of address space).
constexpr std::size_t kMemoryLimitMb = 4096;

// Keys that interface.md lets be null, by command: describe's `obsolescence` when pages never
// expire.
const std::map<std::string, std::set<std::string>> kMayBeNull{{"describe", {"/obsolescence"}}};

// The top-level keys of a scenario file (interface.md); a message's key path starts with one of
// them or with a key the mutant holds (an unknown key is named as written).
const std::set<std::string> kTopLevelKeys{
    "name",         "source", "capacity", "admission",       "arrivals", "service",
    "obsolescence", "costs",  "policy",   "repair-diagonal", "refresh"};

std::uint64_t seed_from_environment() {
  const char* text = std::getenv("CRAWLQ_MUTATION_SEED");
  return text ? std::stoull(text) : kSeed;
}

int mutants_from_environment() {
  const char* text = std::getenv("CRAWLQ_MUTANTS");
  return text ? std::stoi(text) : kMutants;
}

// FNV-1a of the file's name: each scenario its own stream of mutants under one seed.
std::uint64_t scenario_seed(std::uint64_t seed, const std::string& name) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return seed ^ h;
}

std::vector<std::filesystem::path> shipped_scenarios() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data"))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

bool is_refresh_scenario(const std::string& text) {
  return text.find("\nrefresh:") != std::string::npos;
}

// Whether the mutant's capacity is a number above kMostSearchedCapacity (a mutant whose capacity is
// no number, or that is no YAML, is refused at once and stays in).
bool beyond_searched_capacity(const std::string& text) {
  try {
    const YAML::Node root = YAML::Load(text);
    if (!root.IsMap() || !root["capacity"] || !root["capacity"].IsScalar()) return false;
    return root["capacity"].as<double>() > kMostSearchedCapacity;
  } catch (const YAML::Exception&) {
    return false;
  }
}

// Every null in `j` where a number should be; nlohmann writes NaN and infinity as null.
void find_nulls(const nlohmann::json& j, const std::string& path, std::vector<std::string>& found) {
  if (j.is_null()) found.push_back(path.empty() ? "/" : path);
  if (j.is_object())
    for (const auto& [key, value] : j.items()) find_nulls(value, path + "/" + key, found);
  if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i)
      find_nulls(j[i], path + "/" + std::to_string(i), found);
}

// Whether the refusal names a key: a key path first (`arrivals.modes[1].D[0] row 1: ...`) whose
// first key is one of the format's or one the mutant holds (an unknown key is named as written), or
// a key of the format quoted (`policy:`); a YAML syntax error names its line and column instead, a
// file without a top-level mapping has no key to name, and a run too long for the file is refused
// naming its flag (`--horizon 100: ...`).
bool names_a_key(const std::string& message, const std::string& mutant) {
  static const std::regex kPosition(R"(^line \d+, column \d+: )");
  static const std::regex kFlag(R"(^--[a-z][a-z-]*[ :])");
  if (std::regex_search(message, kPosition) || std::regex_search(message, kFlag)) return true;
  if (message.rfind("expected a mapping of keys at the top level", 0) == 0) return true;
  const std::string first = message.substr(0, message.find_first_of(".[: "));
  if (!first.empty() && (kTopLevelKeys.count(first) > 0 || mutant.find(first) != std::string::npos))
    return true;
  for (const auto& key : kTopLevelKeys)
    if (message.find("`" + key + ":`") != std::string::npos) return true;
  return false;
}

// What is wrong with one run, or nothing.
std::string problem(const ProcessResult& run, const std::string& command, const std::string& file,
                    const std::string& mutant) {
  if (run.timed_out) return "ran past the time limit";
  if (run.signaled) return "ended by signal " + std::to_string(run.exit_status - 128);
  for (const char* report :
       {"AddressSanitizer", "LeakSanitizer", "runtime error:", "UndefinedBehaviorSanitizer"})
    if (run.err.find(report) != std::string::npos)
      return std::string("sanitizer report (") + report + ")";
  if (run.exit_status == 0) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(run.out);
    } catch (const nlohmann::json::exception& e) {
      return std::string("exit 0 but stdout is not one JSON document: ") + e.what();
    }
    std::vector<std::string> nulls;
    find_nulls(j, "", nulls);
    const auto allowed = kMayBeNull.find(command);
    std::string listed;
    for (const auto& path : nulls)
      if (allowed == kMayBeNull.end() || allowed->second.count(path) == 0) listed += " " + path;
    if (!listed.empty()) return "exit 0 but null (NaN or infinity) at" + listed;
    return "";
  }
  if (run.exit_status != 2)
    return "exit status " + std::to_string(run.exit_status) + " (neither 0 nor 2)";
  if (!run.out.empty()) return "exit 2 but stdout is not empty";
  const std::vector<std::string> lines = lines_of(run.err);
  if (lines.size() != 1 || run.err.back() != '\n')
    return "exit 2 but stderr holds " + std::to_string(lines.size()) + " lines, not one";
  // The loader's errors start with the path; the commands' own refusals say "crawlq: " first.
  std::string message = lines.front();
  if (message.rfind("crawlq: ", 0) == 0) message.erase(0, 8);
  if (message.rfind(file + ": ", 0) != 0)
    return "exit 2 but the message does not start with the file's path";
  if (!names_a_key(message.substr(file.size() + 2), mutant))
    return "exit 2 but the message names no key";
  return "";
}

struct Job {
  int mutant;
  std::vector<std::string> args;  // after `crawlq`, before the file
};

struct Failure {
  int mutant;
  std::string what, command, kept;
  ProcessResult run;
};

std::vector<Job> jobs_for(const std::vector<Mutant>& mutants, bool refresh_file) {
  const std::vector<std::string> simulate{"simulate", "--json",    "--replications",
                                          "2",        "--horizon", "100"};
  std::vector<Job> jobs;
  for (int n = 0; n < static_cast<int>(mutants.size()); ++n) {
    jobs.push_back({n, {"describe", "--json"}});
    jobs.push_back({n, {"solve", "--json"}});
    if (refresh_file) jobs.push_back({n, {"refresh", "--json"}});
    if (n % kSubsetEvery != 0) continue;
    jobs.push_back({n, simulate});
    if (!beyond_searched_capacity(mutants[static_cast<std::size_t>(n)].text))
      jobs.push_back({n, {"optimize", "--json"}});
    if (!refresh_file) jobs.push_back({n, {"refresh", "--json"}});
  }
  return jobs;
}

}  // namespace

TEST_CASE("mutants of every shipped scenario are answered or refused with one line, nothing else",
          "[cli][mutation][slow]") {
  const std::uint64_t seed = seed_from_environment();
  const int mutants = mutants_from_environment();
  if (testing::kSanitized) {
    // Inherited by every crawlq this test starts (and read by ASan there at start-up).
    const char* options = std::getenv("ASAN_OPTIONS");
    const std::string value = std::string(options ? options : "") +
                              (options && *options ? ":" : "") +
                              "hard_rss_limit_mb=" + std::to_string(kMemoryLimitMb);
    ::setenv("ASAN_OPTIONS", value.c_str(), 1);
  }
  const std::size_t address_space = testing::kSanitized ? 0 : kMemoryLimitMb << 20;
  const std::filesystem::path kept_dir = CRAWLQ_MUTATION_OUTPUT;
  std::filesystem::remove_all(kept_dir);

  int all_answered = 0, all_refused = 0;
  const auto files = shipped_scenarios();
  REQUIRE_FALSE(files.empty());
  for (const auto& original_path : files) {
    const std::string name = original_path.filename().string();
    const std::string original = read_text(original_path.string());
    const bool refresh_file = is_refresh_scenario(original);
    ScenarioMutator mutator(scenario_seed(seed, name));
    TempDirectory dir;
    std::vector<Mutant> mutant_texts;
    std::vector<std::string> paths;
    for (int n = 0; n < mutants; ++n) {
      mutant_texts.push_back(mutator.mutate(original));
      paths.push_back(
          dir.write(original_path.stem().string() + "-mutant-" + std::to_string(n) + ".yaml",
                    mutant_texts.back().text));
    }

    // One crawlq at a time per core, at most four; the checks run here, after the runs, since
    // Catch2's assertions belong to this thread alone.
    const auto start = std::chrono::steady_clock::now();
    const std::vector<Job> jobs = jobs_for(mutant_texts, refresh_file);
    std::vector<ProcessResult> runs(jobs.size());
    std::atomic<std::size_t> next_job{0};
    std::string worker_error;
    std::mutex worker_error_lock;
    const unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < workers; ++w)
      pool.emplace_back([&] {
        for (std::size_t i; (i = next_job++) < jobs.size();) {
          std::vector<std::string> argv{CRAWLQ_BINARY};
          argv.insert(argv.end(), jobs[i].args.begin(), jobs[i].args.end());
          argv.push_back(paths[static_cast<std::size_t>(jobs[i].mutant)]);
          try {
            runs[i] = run_process(
                argv, jobs[i].args.front() == "optimize" ? kSearchTimeLimit : kTimeLimit,
                address_space);
          } catch (const std::exception& e) {
            const std::lock_guard<std::mutex> hold(worker_error_lock);
            worker_error = e.what();
          }
        }
      });
    for (auto& thread : pool) thread.join();
    REQUIRE(worker_error.empty());

    std::vector<Failure> failures;
    int answered = 0, refused = 0;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const int n = jobs[i].mutant;
      const std::string& path = paths[static_cast<std::size_t>(n)];
      const std::string what = problem(runs[i], jobs[i].args.front(), path,
                                       mutant_texts[static_cast<std::size_t>(n)].text);
      if (what.empty()) {
        (runs[i].exit_status == 0 ? answered : refused) += 1;
        continue;
      }
      std::filesystem::create_directories(kept_dir);
      const std::filesystem::path kept = kept_dir / std::filesystem::path(path).filename();
      std::ofstream(kept) << mutant_texts[static_cast<std::size_t>(n)].text;
      std::string command = "crawlq";
      for (const auto& a : jobs[i].args) command += " " + a;
      failures.push_back({n, what, command + " " + kept.string(), kept.string(), runs[i]});
    }

    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream summary;
    int unsearched = 0;
    for (int n = 0; n < mutants; n += kSubsetEvery)
      unsearched +=
          beyond_searched_capacity(mutant_texts[static_cast<std::size_t>(n)].text) ? 1 : 0;
    summary << name << ": " << mutants << " mutants (seed " << seed << "), " << jobs.size()
            << " runs in " << static_cast<int>(seconds) << " s: " << answered << " answered, "
            << refused << " refused, " << failures.size() << " broke the promise; " << unsearched
            << " not optimized (capacity above " << kMostSearchedCapacity << ")";
    // Printed whole (Catch2 would wrap every line at 80 columns): each failure with its edits, the
    // command to run again and crawlq's output, each failing mutant once (cut at 3000 characters;
    // all of it is kept in mutation_failures/).
    std::cout << summary.str() << '\n';
    std::set<int> shown;
    for (const Failure& f : failures) {
      const Mutant& m = mutant_texts[static_cast<std::size_t>(f.mutant)];
      std::cout << "\n--- seed " << seed << ", " << name << ", mutant " << f.mutant << ": "
                << f.what << "\nedits:";
      for (const auto& e : m.edits) std::cout << "\n  " << e;
      if (shown.insert(f.mutant).second)
        std::cout << "\n--- mutant ---\n"
                  << (m.text.size() > 3000
                          ? m.text.substr(0, 3000) + "\n[... cut at 3000 characters]"
                          : m.text);
      std::cout << "\nrun again: " << f.command << "\n" << report(f.run) << '\n';
    }
    std::cout << std::flush;
    std::string listing;
    for (const auto& f : failures)
      listing += "\n  mutant " + std::to_string(f.mutant) + ": " + f.what + "\n    $ " + f.command;
    INFO(summary.str() << listing);
    CHECK(failures.empty());
    all_answered += answered;
    all_refused += refused;
  }
  // A mutation test whose mutants are all refused (or all answered) tests less than it seems.
  CHECK(all_answered > 0);
  CHECK(all_refused > 0);
}

}  // namespace crawlq::cli_test
