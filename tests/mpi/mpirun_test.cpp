// `mpirun -np 2 crawlq sweep|simulate ...` against the same command in one process, on one and two
// threads: stdout byte for byte (JSON without its wall-time key `seconds`, tables without the line
// that gives the time), the same CSV, and bad input refused once with exit 2 and no process left
// waiting. Shares are uneven on purpose (7 values, 7 replications over 2 processes).
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli/cli_support.hpp"
#include "tests/sanitizer_budget.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

// `value` after what `name` already holds, ':' between.
void append_option(const char* name, const std::string& value) {
  const char* now = std::getenv(name);
  ::setenv(name, ((now && *now ? std::string(now) + ":" : std::string()) + value).c_str(), 1);
}

// Under the sanitizers (-DCRAWLQ_SANITIZE=ON): Open MPI keeps allocations of its own until a
// process ends, which LeakSanitizer would report from every crawlq. Its plugins stay loaded and
// stacks are unwound in full, so that they name Open MPI's libraries, and only those are suppressed
// (openmpi.lsan.supp). mpirun passes its environment on to the processes it starts.
void quiet_open_mpi_leaks() {
  static const bool once = [] {
    ::setenv("OMPI_MCA_mca_base_component_disable_dlclose", "1", 1);
    append_option("ASAN_OPTIONS", "fast_unwind_on_malloc=0");
    append_option("LSAN_OPTIONS", "print_suppressions=0:suppressions=" CRAWLQ_SOURCE_DIR
                                  "/tests/mpi/openmpi.lsan.supp");
    return true;
  }();
  (void)once;
}

// Open MPI's mpirun: as root too (CI runs as root), more processes than cores if need be, no
// pinning (ctest runs two tests at once), no note of its own on a non-zero exit (-q), and its own
// time limit below run_process's, so that a hang ends every process rather than mpirun alone.
ProcessResult mpirun(const std::vector<std::string>& args, int processes = 2) {
  if (testing::kSanitized) quiet_open_mpi_leaks();
  std::vector<std::string> argv{CRAWLQ_MPIEXEC,
                                "-q",
                                "--allow-run-as-root",
                                "--oversubscribe",
                                "--bind-to",
                                "none",
                                "--timeout",
                                "100",
                                "-np",
                                std::to_string(processes),
                                CRAWLQ_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, std::chrono::seconds(120));
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

ProcessResult succeeded(const ProcessResult& run) {
  INFO(report(run));
  REQUIRE(run.exit_status == 0);
  CHECK(run.err.empty());
  return run;
}

// `text` without the lines holding `fragment` (the lines that give a wall time).
std::string without_lines(const std::string& text, const std::string& fragment) {
  std::string kept;
  for (const auto& line : lines_of(text))
    if (line.find(fragment) == std::string::npos) kept += line + "\n";
  return kept;
}

// The first line and the rest apart.
std::pair<std::string, std::string> split_first_line(const std::string& text) {
  const auto end = text.find('\n');
  if (end == std::string::npos) return {text, ""};
  return {text.substr(0, end), text.substr(end + 1)};
}

TEST_CASE(
    "sweep --class under mpirun -np 2: each value's class best travels whole, as one process finds it",
    "[mpi][sweep]") {
  const std::string policy_class = GENERATE(as<std::string>{}, "phase-aware", "memory", "markov");
  INFO("--class " << policy_class);
  const std::vector<std::string> args{"sweep",    shipped("paper-example-1.yaml"),
                                      "--param",  "capacity",
                                      "--values", "3,4,5",
                                      "--class",  policy_class,
                                      "--json",   "--threads",
                                      "1"};
  const ProcessResult spread = succeeded(mpirun(args));
  const ProcessResult one = succeeded(crawlq(args));
  CHECK(spread.out == one.out);
  CHECK(json_of(one).at("rows").at(2).at("class_best").at("class") == policy_class);
}

TEST_CASE("sweep under mpirun -np 2: the JSON, table and CSV of one process",
          "[mpi][sweep][heavy]") {
  const TempDirectory dir;
  const auto [name, param, values, rows] =
      GENERATE(table<std::string, std::string, std::string, int>(
          {{"paper-example-1.yaml", "capacity", "1,2,3,4,5,6,7", 7},
           {"paper-example-1.yaml", "costs.robot", "0,5,10,20,30,40,80", 7},
           {"never-expire.yaml", "service-scale", "0.5,1,2", 3}}));
  // kTwoModes without its obsolescence section: rows whose g_1 is absent (null, an empty field).
  const std::string file =
      name == "never-expire.yaml"
          ? dir.write(name,
                      replace_once(kTwoModes, "obsolescence: {gamma: [1], Gamma: [[-0.5]]}\n", ""))
          : shipped(name);
  const std::vector<std::string> sweep{"sweep", file, "--param", param, "--values", values};
  INFO("crawlq sweep " << name << " --param " << param << " --values " << values);

  SECTION("--json") {
    const auto args = with(sweep, {"--json"});
    const ProcessResult spread = succeeded(mpirun(with(args, {"--threads", "1"})));
    CHECK(json_of(spread).at("rows").size() == static_cast<std::size_t>(rows));
    for (const char* threads : {"1", "2"}) {
      INFO("--threads " << threads);
      const ProcessResult one = succeeded(crawlq(with(args, {"--threads", threads})));
      CHECK(spread.out == one.out);
    }
  }
  SECTION("the table (but its first line, which gives the time) and --csv") {
    // One file name for both runs: the table names it.
    const std::string csv = (dir.path() / "rows.csv").string();
    const ProcessResult one = succeeded(crawlq(with(sweep, {"--threads", "2", "--csv", csv})));
    const std::string one_csv = read_text(csv);
    std::filesystem::remove(csv);
    const ProcessResult spread = succeeded(mpirun(with(sweep, {"--threads", "1", "--csv", csv})));
    const std::string spread_csv = read_text(csv);
    const auto [spread_head, spread_table] = split_first_line(spread.out);
    const auto [one_head, one_table] = split_first_line(one.out);
    // "name (file): param over n values, ... in 0.0123 s"
    CHECK(spread_head.substr(0, spread_head.rfind(" in ")) ==
          one_head.substr(0, one_head.rfind(" in ")));
    CHECK(lines_of(spread_table).size() > static_cast<std::size_t>(rows));
    CHECK(spread_table == one_table);
    CHECK(lines_of(spread_csv).size() == static_cast<std::size_t>(rows) + 1);
    CHECK(spread_csv == one_csv);
  }
}

TEST_CASE("simulate under mpirun -np 2: the JSON of one process but `seconds`", "[mpi][simulate]") {
  const auto [file, extra] = GENERATE(table<std::string, std::vector<std::string>>(
      {// A fixed run, 7 replications: shares of 3 and 4.
       {"teaching-two-robots.yaml", {"--seed", "3", "--replications", "7", "--horizon", "20000"}},
       // The sequential mode over several rounds: both processes must stop at the same one.
       {"teaching-two-robots.yaml", {"--seed", "4", "--precision", "0.02", "--horizon", "2000"}},
       // A simulation-only policy, the warm-up by MSER-5 on each process's pilot run.
       {"teaching-hysteresis.yaml", {"--seed", "5", "--replications", "5", "--horizon", "5000"}},
       // Two policies on common random numbers.
       {"paper-example-1.yaml",
        {"--replications", "6", "--horizon", "5000", "--compare", "levels=4,3,3,1,1,1"}}}));
  const auto args = with(with({"simulate", shipped(file)}, extra), {"--json"});
  const ProcessResult spread = succeeded(mpirun(with(args, {"--threads", "1"})));
  const json spread_json = json_of(spread);
  INFO(spread_json.dump());
  for (const char* threads : {"1", "2"}) {
    INFO("--threads " << threads);
    const ProcessResult one = succeeded(crawlq(with(args, {"--threads", threads})));
    CHECK(without_timing(spread_json) == without_timing(json_of(one)));
    // The times: "seconds" and its parts, "seconds_warmup" and "seconds_replications".
    CHECK(without_lines(spread.out, "\"seconds") == without_lines(one.out, "\"seconds"));
  }
  if (std::find(extra.begin(), extra.end(), "--precision") != extra.end()) {
    // More than the first round of 10, reached by precision, not by the time limit.
    CHECK(spread_json.at("replications").get<int>() > 10);
    CHECK(spread_json.at("precise") == true);
  }
}

TEST_CASE(
    "a rhythm under mpirun -np 2: each replication's pieces and each row's vectors per piece "
    "travel whole",
    "[mpi][rhythm]") {
  const TempDirectory dir;
  const std::string file =
      dir.write("day.yaml", read_text(shipped("teaching-two-robots.yaml")) +
                                "\nrhythm: {period: 12, scales: [0.4, 1.7, 1.1]}\n");
  const std::vector<std::string> simulate{"simulate",       file,        "--seed",    "8",
                                          "--replications", "5",         "--horizon", "2400",
                                          "--json",         "--threads", "1"};
  const ProcessResult spread = succeeded(mpirun(simulate));
  const ProcessResult one = succeeded(crawlq(simulate));
  CHECK(json_of(spread).at("pieces").size() == 3);
  CHECK(without_timing(json_of(spread)) == without_timing(json_of(one)));

  const std::vector<std::string> sweep{"sweep",    file,        "--param", "rhythm-amplitude",
                                       "--values", "0,0.8,1.2", "--json",  "--threads",
                                       "1"};
  const ProcessResult swept = succeeded(mpirun(sweep));
  CHECK(json_of(swept).at("rows").at(2).at("by_piece").at("pieces").size() == 3);
  CHECK(swept.out == succeeded(crawlq(sweep)).out);
}

TEST_CASE("simulate under mpirun -np 3: a share may be empty", "[mpi][simulate]") {
  const std::vector<std::string> args{"simulate",       shipped("teaching-two-robots.yaml"),
                                      "--seed",         "6",
                                      "--replications", "2",
                                      "--horizon",      "5000",
                                      "--threads",      "1",
                                      "--json"};
  const ProcessResult spread = succeeded(mpirun(args, 3));
  const ProcessResult one = succeeded(crawlq(args));
  CHECK(without_timing(json_of(spread)) == without_timing(json_of(one)));
}

TEST_CASE("bad input under mpirun -np 2: one message, exit 2, no process left waiting",
          "[mpi][bad-input]") {
  const std::string example = shipped("paper-example-1.yaml");
  SECTION("a value every process refuses") {
    check_refused(mpirun({"sweep", example, "--param", "capacity", "--values", "2,0"}),
                  {"--values", "capacity 0"});
  }
  SECTION("a file only rank 0 writes, refused before any work") {
    check_refused(mpirun({"sweep", example, "--param", "capacity", "--values", "1,2", "--csv",
                          "/nonexistent-directory/rows.csv"}),
                  {"--csv", "/nonexistent-directory/rows.csv"});
  }
  SECTION("a simulate flag") {
    check_refused(mpirun({"simulate", example, "--seed", "-1", "--replications", "4"}),
                  {"--seed", "-1"});
  }
  SECTION("a command that runs on rank 0 alone") {
    check_refused(mpirun({"solve", "/nonexistent-directory/model.yaml"}),
                  {"/nonexistent-directory/model.yaml"});
  }
}

TEST_CASE("the time limit stops a round under mpirun -np 2, not only between rounds",
          "[mpi][simulate]") {
  // Each replication takes many seconds, though the bound up front (1e8 events a second) lets it
  // start; the sequential mode's first round is cut inside it on both processes, and 0 replications
  // cannot make an interval. The refusal is the proof: a limit checked only between rounds would
  // finish the first round's replications and answer with them. The wall time is bounded only
  // against a hang, with the margin a loaded machine or the sanitizers need.
  const auto start = std::chrono::steady_clock::now();
  const ProcessResult cut = mpirun({"simulate", shipped("paper-example-1.yaml"), "--horizon", "4e7",
                                    "--warmup", "0", "--time-limit", "3", "--threads", "1"});
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(120));
  check_refused(cut, {"--time-limit 3 s: 0 replications", "--horizon"});
}

TEST_CASE("other commands under mpirun -np 2 print once", "[mpi]") {
  const std::vector<std::string> args{"describe", shipped("teaching-two-robots.yaml")};
  const ProcessResult spread = succeeded(mpirun(args));
  const ProcessResult one = succeeded(crawlq(args));
  CHECK(spread.out == one.out);
}

}  // namespace
}  // namespace crawlq::cli_test
