#include "validation/output_file.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace {

std::string contents(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Scratch {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "crawlq-output-file-test";
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
    crawlq::validation::OutputFile file(target, "--csv results.csv");
    file.stream() << "half of the new";
    CHECK(contents(target) == "old\n");  // nothing of the new text shows before the commit
  }  // dropped without a commit, as when a run is interrupted by an error
  CHECK(contents(target) == "old\n");
  CHECK(std::distance(std::filesystem::directory_iterator(scratch.dir), {}) == 1);  // no temporary left

  crawlq::validation::OutputFile file(target);
  file.stream() << "new\n";
  file.commit();
  CHECK(contents(target) == "new\n");
}

TEST_CASE("a failed write is an error naming the flag and the file", "[output_file]") {
  crawlq::validation::OutputFile full("/dev/full", "--export /dev/full");
  full.stream() << std::string(1 << 16, 'x');
  CHECK_THROWS_WITH(full.commit(), Catch::StartsWith("--export /dev/full: cannot write the file"));
  CHECK_THROWS_AS(crawlq::validation::OutputFile("/no/such/dir/x.csv"), crawlq::validation::OutputError);
  Scratch scratch;
  CHECK_THROWS_WITH(crawlq::validation::OutputFile(scratch.dir), Catch::Contains("a directory"));
  CHECK_THROWS_AS(crawlq::validation::require_writable_directory("/dev/full", "--out /dev/full"),
                  crawlq::validation::OutputError);
  CHECK_NOTHROW(crawlq::validation::require_writable_directory(scratch.dir / "report", "--out report"));
}
