// fit and every file it reads against the hardening campaign of issue 28: degenerate logs and
// samples answer with a law that says what it matched, or exit 2 with a message naming the file;
// never a signal, an exit 1 or memory without bound. Files that are no regular UTF-8 file are
// refused before a read can block, and fit writes nothing it then refuses.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>

#include "tests/cli/cli_support.hpp"
#include "tests/sanitizer_budget.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;
using std::chrono::seconds;

const std::string kLog = CRAWLQ_SOURCE_DIR "/scenarios/logs/synthetic-crawler.log";

// crawlq under an address-space cap of 2 GiB (none under the sanitizers), so that an input read
// or expanded without bound fails fast.
ProcessResult capped(const std::vector<std::string>& args) {
  std::vector<std::string> argv{CRAWLQ_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, seconds(60), testing::kSanitized ? 0 : std::size_t{2} << 30);
}

std::string lines(int count, const std::function<std::string(int)>& line) {
  std::string text;
  for (int i = 0; i < count; ++i) text += line(i) + "\n";
  return text;
}

std::string number(double x) {
  std::ostringstream text;
  text.precision(17);
  text << x;
  return text.str();
}

// Exit 0 with a law whose numbers are finite, or exit 2 with one line naming `file`.
void check_answered_or_refused(const ProcessResult& run, const std::string& file) {
  INFO(report(run));
  REQUIRE_FALSE(run.signaled);
  REQUIRE_FALSE(run.timed_out);
  REQUIRE((run.exit_status == 0 || run.exit_status == 2));
  if (run.exit_status == 2) {
    check_refused(run, {file});
    return;
  }
  const json j = json_of(run);
  CHECK(j.at("fitted").at("mean").is_number());
  CHECK(std::isfinite(j.at("fitted").at("mean").get<double>()));
}

TEST_CASE("fit arrivals: degenerate logs are answered or refused, with either method",
          "[cli][fit][hardening]") {
  TempDirectory dir;
  const std::vector<std::pair<std::string, std::string>> logs{
      {"zeros.log", lines(1000, [](int) { return "0"; })},
      {"equal.log", "5\n5\n5\n5\n"},
      {"two.log", "1\n2\n"},
      {"header.log", "time\n"},
      {"nan.log", "1\nnan\n"},
      {"regular.log", lines(300, [](int i) { return std::to_string(i); })},
      {"near-constant.log", lines(300, [](int i) { return number(i * (1 + (i % 2) * 3e-7)); })},
      {"huge.log", lines(100, [](int i) { return number(1e300 + i * 1e285); })},
      {"tiny.log", lines(100, [](int i) { return number(i * 1e-300); })},
      {"negative.log", lines(100, [](int i) { return number(-1e6 + i * (i % 3 + 1)); })},
  };
  for (const auto& [name, text] : logs) {
    const std::string file = dir.write(name, text);
    for (const char* method : {"moments", "em"}) {
      INFO(name << " --method " << method);
      check_answered_or_refused(capped({"fit", "arrivals", file, "--method", method, "--json"}),
                                name);
    }
  }
  check_refused(crawlq({"fit", "arrivals", dir.write("same.log", "7\n7\n7\n")}),
                {"same.log", "one batch", "every timestamp is 7"});
  check_refused(crawlq({"fit", "arrivals", (dir.path() / "huge.log").string()}),
                {"huge.log", "another unit"});
  // Gaps of one length: the closest MAP (Erlang-50 times) and a note saying so.
  const json regular =
      json_of(crawlq({"fit", "arrivals", (dir.path() / "regular.log").string(), "--json"}));
  CHECK(regular["fitted"]["phases"] == 50);
  CHECK_THAT(regular["fitted"]["note"].get<std::string>(), Catch::Contains("50 phases"));
}

TEST_CASE("fit service and obsolescence: degenerate samples and moments", "[cli][fit][hardening]") {
  TempDirectory dir;
  for (const char* law : {"service", "obsolescence"}) {
    INFO(law);
    // scv 1e-10 asked ceil(1/scv) phases of an int: Erlang-100 now, and the note.
    const json tight =
        json_of(crawlq({"fit", law, "--moments", "1,1.0000000001,1.0000000002", "--json"}));
    CHECK(tight["fitted"]["phases"] == 100);
    CHECK_THAT(tight["fitted"]["note"].get<std::string>(), Catch::Contains("Erlang-100"));
    const std::vector<std::pair<std::string, std::string>> samples{
        {"scv-1e-11.txt", lines(1000, [](int i) { return number(1 + (i % 2) * 6.3e-6); })},
        {"one-value.txt", lines(50, [](int) { return "5"; })},
        {"two.txt", "1\n2\n"},
        {"huge-scv.txt", lines(2000, [](int i) { return i == 0 ? "1e8" : "1e-4"; })},
        {"tiny.txt", lines(50, [](int i) { return number((1 + i) * 1e-300); })},
        {"huge.txt", lines(50, [](int i) { return number((1 + i) * 1e300); })},
        {"negative.txt", "1\n-1\n"},
        {"inf.txt", "1\ninf\n"},
    };
    for (const auto& [name, text] : samples) {
      const std::string file = dir.write(name, text);
      for (const char* method : {"moments", "em"}) {
        INFO(name << " --method " << method);
        check_answered_or_refused(capped({"fit", law, file, "--method", method, "--json"}), name);
      }
    }
    check_refused(crawlq({"fit", law, (dir.path() / "one-value.txt").string()}),
                  {"one-value.txt", "every value is 5"});
    check_refused(crawlq({"fit", law, "--moments", "1e300,1e301,1e302"}),
                  {"--moments", "another unit"});
  }
}

TEST_CASE("fit reads only regular UTF-8 files, bounded", "[cli][fit][hardening]") {
  TempDirectory dir;
  const std::string fifo = (dir.path() / "fifo.log").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // A blocking open of a FIFO with no writer never returns: the limit would end this run.
  check_refused(crawlq({"fit", "arrivals", fifo}, seconds(20)), {"fifo.log", "FIFO"});
  check_refused(crawlq({"fit", "service", fifo}, seconds(20)), {"fifo.log", "FIFO"});
  check_refused(capped({"fit", "arrivals", "/dev/zero"}), {"/dev/zero", "not a log"});
  check_refused(capped({"fit", "obsolescence", "/dev/zero"}), {"/dev/zero", "not a sample"});
  check_refused(crawlq({"fit", "arrivals", dir.path().string()}), {"a directory"});
  check_refused(crawlq({"fit", "arrivals", dir.write("latin.log", "1\n2\n3 \xb5s\n")}),
                {"latin.log", "line 3", "UTF-8"});
  // A policy table is read the same way.
  const std::string table_fifo = (dir.path() / "table.csv").string();
  REQUIRE(::mkfifo(table_fifo.c_str(), 0600) == 0);
  const std::string scenario = dir.write(
      "tabled.yaml",
      "capacity: 2\narrivals: {kind: poisson, modes: [{rate: 1}]}\nservice: {exponential: {rate: 1}}\n"
      "policy: {table: table.csv}\n");
  check_refused(crawlq({"describe", scenario}, seconds(20)), {"table.csv", "FIFO"});
}

TEST_CASE("aliases that expand without bound are refused by describe and lab", "[cli][hardening]") {
  TempDirectory dir;
  std::string laughs = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
  const std::string names = "abcdefghij";
  for (std::size_t level = 1; level < names.size(); ++level) {
    laughs += std::string(1, names[level]) + ": &" + names[level] + " [";
    for (int i = 0; i < 9; ++i) laughs += std::string(i ? ", *" : "*") + names[level - 1];
    laughs += "]\n";
  }
  const std::string file = dir.write("laughs.yaml", laughs);
  const std::string self = dir.write("self.yaml", "capacity: &c [*c]\n");
  for (const char* command : {"describe", "lab"}) {
    INFO(command);
    // lab converts each file to JSON before it serves anything: refused there, or it would serve.
    check_refused(capped({command, file}), {"laughs.yaml", "aliases expand"});
    check_refused(capped({command, self}), {"self.yaml"});
  }
}

TEST_CASE("fit arrivals --out: nothing written when the run is refused", "[cli][fit][hardening]") {
  TempDirectory dir;
  const std::string out = (dir.path() / "new.yaml").string();
  const std::string base = shipped("paper-example-1.yaml");
  // --plot makes its last directory, not a missing parent.
  check_refused(crawlq({"fit", "arrivals", kLog, "--scenario", base, "--out", out, "--plot",
                        (dir.path() / "no-such-dir" / "figures").string()}),
                {"--plot"});
  CHECK_FALSE(std::filesystem::exists(out));
  // The base's policy needs four modes: one robot's BMAP cannot take it.
  check_refused(
      crawlq({"fit", "arrivals", kLog, "--scenario", base, "--out", out, "--robots", "1"}),
      {"new.yaml", "not written", "policy"});
  CHECK_FALSE(std::filesystem::exists(out));
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()),
                      std::filesystem::directory_iterator()) == 0);
  const ProcessResult written =
      crawlq({"fit", "arrivals", kLog, "--scenario", base, "--out", out, "--json"});
  INFO(report(written));
  CHECK(written.exit_status == 0);
  CHECK(crawlq({"describe", out}).exit_status == 0);
}

}  // namespace
}  // namespace crawlq::cli_test
