// Messages that quote what the user typed or named stay valid UTF-8, whatever the bytes: a byte
// that is no UTF-8 character is written \xNN, and a long value is cut between characters.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {

TEST_CASE("a refusal quoting bytes that are not UTF-8 is valid UTF-8", "[cli][messages]") {
  const std::string latin1 = "caf\xe9";
  const std::string paper = shipped("paper-example-1.yaml");
  const std::vector<std::vector<std::string>> commands{
      {latin1},                                      // an unknown command
      {"solve", paper, latin1},                      // an argument CLI11 does not expect
      {"simulate", paper, "--seed", latin1},         // a flag's value
      {"describe", "/no/such/" + latin1 + ".yaml"},  // a file's name
      {"solve", paper, "--levels",
       std::string(70, '3') + "\xc3\xa9\xc3\xa9"},  // long, then two-byte ones
  };
  for (const auto& args : commands) {
    const ProcessResult run = crawlq(args);
    INFO(report(run));
    CHECK(run.exit_status == 2);
    CHECK_FALSE(run.err.empty());
    CHECK_NOTHROW(nlohmann::json(run.err).dump());  // json refuses a string that is not UTF-8
  }
  const ProcessResult named = crawlq({"describe", "/no/such/" + latin1 + ".yaml"});
  CHECK(named.err.find("caf\\xe9") != std::string::npos);
}

}  // namespace crawlq::cli_test
