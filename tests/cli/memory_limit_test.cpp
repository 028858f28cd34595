// A memory limit below the machine's (a container's memory.max, `ulimit -v`) is the one a solve
// runs into: a chain too large for it is refused at once with the sizes (exit 2), never an
// allocation failure (exit 1) after minutes.
#include <catch2/catch.hpp>
#include <string>

#include "tests/cli/cli_support.hpp"
#include "tests/cli/process.hpp"

namespace crawlq::cli_test {
namespace {

TEST_CASE("under an address-space limit a chain too large for it is refused before any work",
          "[cli][hardening]") {
  if (CRAWLQ_SANITIZED) {
    // AddressSanitizer's shadow alone takes terabytes of address space: no such limit can be set.
    WARN("not under the sanitizers: the plain build runs this case");
    return;
  }
  TempDirectory dir;
  const std::string large = dir.write(
      "large.yaml",
      replace_once(read_text(shipped("paper-example-1.yaml")), "capacity: 5", "capacity: 23"));
  const ProcessResult run =
      run_process({CRAWLQ_BINARY, "solve", large, "--thresholds", "-1,2,2", "--full-chain"},
                  std::chrono::seconds(120), std::size_t{3} << 30);
  INFO(report(run));
  CHECK(run.exit_status == 2);
  CHECK_THAT(run.err, Catch::Contains("GiB") && Catch::Contains("largest capacity"));
  CHECK_THAT(run.err, !Catch::Contains("bad_alloc"));
}

}  // namespace
}  // namespace crawlq::cli_test
