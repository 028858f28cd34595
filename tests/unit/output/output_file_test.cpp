#include "output/output_file.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "output/temporary_files.hpp"

namespace {

std::string contents(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// One directory a process: ctest runs each test case as its own process, side by side, and two
// sharing a directory removed each other's files.
struct Scratch {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("crawlq-output-file-test-" + std::to_string(::getpid()));
  Scratch() {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~Scratch() { std::filesystem::remove_all(dir); }
};

}  // namespace

TEST_CASE("an output file replaces its target only when written whole", "[output_file]") {
  Scratch scratch;
  const auto target = scratch.dir / "results.csv";
  std::ofstream(target) << "old\n";
  {
    crawlq::output::OutputFile file(target, "--csv results.csv");
    file.stream() << "half of the new";
    CHECK(contents(target) == "old\n");  // nothing of the new text shows before the commit
  }  // dropped without a commit, as when a run is interrupted by an error
  CHECK(contents(target) == "old\n");
  CHECK(std::distance(std::filesystem::directory_iterator(scratch.dir), {}) ==
        1);  // no temporary left

  crawlq::output::OutputFile file(target);
  file.stream() << "new\n";
  file.commit();
  CHECK(contents(target) == "new\n");
}

TEST_CASE("a failed write is an error naming the flag and the file", "[output_file]") {
  crawlq::output::OutputFile full("/dev/full", "--export /dev/full");
  full.stream() << std::string(1 << 16, 'x');
  CHECK_THROWS_WITH(full.commit(), Catch::StartsWith("--export /dev/full: cannot write the file"));
  CHECK_THROWS_AS(crawlq::output::OutputFile("/no/such/dir/x.csv"), crawlq::output::OutputError);
  Scratch scratch;
  CHECK_THROWS_WITH(crawlq::output::OutputFile(scratch.dir), Catch::Contains("a directory"));
  CHECK_THROWS_AS(crawlq::output::require_writable_directory("/dev/full", "--out /dev/full"),
                  crawlq::output::OutputError);
  CHECK_NOTHROW(crawlq::output::require_writable_directory(scratch.dir / "report", "--out report"));
}

TEST_CASE("a signal that ends the process removes the temporaries of the outputs in progress",
          "[output_file][signal]") {
  Scratch scratch;
  const auto target = scratch.dir / "trace.csv";
  std::ofstream(target) << "old\n";
  // A child process, which the signal ends; the handler itself runs end_by_signal's removal.
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    crawlq::output::OutputFile trace(target, "--trace trace.csv");
    crawlq::output::OutputFile second(scratch.dir / "second.csv");
    trace.stream() << "half of a long trace";
    trace.stream().flush();
    crawlq::output::end_by_signal(SIGTERM);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(contents(target) == "old\n");
  CHECK(std::distance(std::filesystem::directory_iterator(scratch.dir), {}) ==
        1);  // no temporary left
}

TEST_CASE("a temporary leaves the table when its file is committed or dropped",
          "[output_file][signal]") {
  Scratch scratch;
  const auto target = scratch.dir / "kept.csv";
  {
    crawlq::output::OutputFile file(target);
    file.stream() << "whole\n";
    file.commit();
  }
  // Committed: its name is the target's now, and the signal must not remove it.
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) crawlq::output::end_by_signal(SIGTERM);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(contents(target) == "whole\n");
  // More outputs than the table holds at once: the ones beyond are still written whole.
  std::vector<std::unique_ptr<crawlq::output::OutputFile>> many;
  for (int i = 0; i < 100; ++i) {
    std::string name =
        "f";  // built in steps: g++ 12 warns falsely (-Wrestrict) on "f" + to_string(i)
    name += std::to_string(i);
    many.push_back(std::make_unique<crawlq::output::OutputFile>(scratch.dir / name));
  }
  for (auto& file : many) {
    file->stream() << "x";
    file->commit();
  }
  CHECK(contents(scratch.dir / "f99") == "x");
}
