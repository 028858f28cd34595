// Both streams into one file (`crawlq ... > out.txt 2>&1`, or `2>&1 | tee`): the notes crawlq
// writes on stderr come where they were written, after the table, not ahead of a stdout still held
// in its buffer.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {

TEST_CASE("with stdout and stderr in one file, the notes follow the output they close",
          "[cli][streams]") {
  const TempDirectory dir;
  const std::string both = (dir.path() / "both.txt").string();
  // paper-real-data's rounded D_0 is repaired, and the repair is noted on stderr at the end.
  const std::string command = std::string("'") + CRAWLQ_BINARY + "' solve '" +
                              shipped("paper-real-data.yaml") + "' > '" + both + "' 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream in(both);
  std::stringstream text;
  text << in.rdbuf();
  const std::string out = text.str();
  const auto table = out.find("paper-real-data ("), note = out.find("repaired");
  INFO(out);
  REQUIRE(table != std::string::npos);
  REQUIRE(note != std::string::npos);
  CHECK(table < note);
  CHECK(out.find("cost", table) < note);
}

}  // namespace crawlq::cli_test
