// The memory a request is checked against (analytic::estimate_memory: a solve is refused where it
// exceeds what the machine can give) bounds what `crawlq solve` then holds, whichever parts run:
// the stationary solve, the sojourn times, the transients, and a stiff chain's Krylov steps. An
// estimate below the peak lets a solve run out of memory; one far above it refuses solves that
// fit (before 2026-12-07 it was 3.2 times the peak at K = 24).
#include "analytic/stationary/memory_estimate.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "scenarios/scenario_loader.hpp"
#include "tests/cli/cli_support.hpp"
#include "tests/cli/process.hpp"

namespace crawlq::cli_test {
namespace {

struct Case {
  std::string name;
  std::string text;  // the scenario, its capacity written as CAPACITY
  int capacity;
  bool stiff;  // its sojourn laws and transients take Krylov steps
};

// The paper's first example; the same with a service phase 10^5 times faster (stiff: the sojourn
// laws and transients take Krylov steps, whose basis the estimate counts); one arrival and one
// service phase, where the tagged page's chain is as large as the chain.
std::vector<Case> cases() {
  const std::string paper =
      replace_once(read_text(shipped("paper-example-1.yaml")), "capacity: 5", "capacity: CAPACITY");
  return {
      {"the paper's example", paper, 18, false},
      {"a stiff service", replace_once(paper, "S: [[-3, 1], [2, -3]]", "S: [[-3e5, 1], [2, -3]]"),
       15, true},
      {"one arrival and one service phase", R"(capacity: CAPACITY
arrivals:
  kind: poisson
  modes:
    - {rate: 3.1, batch: [0.4, 0.3, 0.2, 0.1]}
    - {rate: 2.2, batch: [0.5, 0.3, 0.2]}
    - {rate: 1.3, batch: [0.6, 0.4]}
    - {rate: 0.7, batch: [1]}
service: {exponential: {mean: 0.21}}
obsolescence: {gamma: [0.35, 0.65], Gamma: [[-0.62, 0.41], [0.13, -0.29]]}
policy: {thresholds: [-1, 2, 2]}
)",
       20, false},
  };
}

std::string with_capacity(const std::string& text, int capacity) {
  return replace_once(text, "capacity: CAPACITY", "capacity: " + std::to_string(capacity));
}

TEST_CASE("the memory estimate bounds what every part of a solve holds", "[cli][memory]") {
  if (CRAWLQ_SANITIZED) {
    // AddressSanitizer's shadow and quarantine multiply what a process holds.
    WARN("not under the sanitizers: the plain build runs this case");
    return;
  }
  TempDirectory dir;
  const std::vector<std::vector<std::string>> parts{
      {},                                   // the stationary solve and the sojourn means
      {"--sojourn"},                        // the quantiles
      {"--from", "full", "--times", "1"}};  // the transients
  for (const Case& c : cases()) {
    const std::string file = dir.write("model.yaml", with_capacity(c.text, c.capacity));
    const std::string tiny = dir.write("tiny.yaml", with_capacity(c.text, 2));
    const model::Model m = scenarios::load_scenario(file).model;
    const analytic::MemoryEstimate estimate =
        analytic::estimate_memory(m, analytic::Method::kIterative);
    double largest = 0;
    for (const auto& part : parts) {
      const auto solve = [&](const std::string& scenario, const std::string& method) {
        std::vector<std::string> argv{CRAWLQ_BINARY, "solve", scenario,    "--json", "--full-chain",
                                      "--method",    method,  "--threads", "1"};
        argv.insert(argv.end(), part.begin(), part.end());
        return argv;
      };
      const ProcessResult run = run_process(solve(file, "iterative"), std::chrono::seconds(120));
      // What the process holds whatever the chain: its libraries, stacks and buffers.
      const ProcessResult baseline = run_process(solve(tiny, "block-recursion"));
      INFO(c.name << ", " << report(run) << "\nestimate " << estimate.bytes << " bytes, "
                  << estimate.states << " states; peak " << run.peak_resident_bytes
                  << ", the process alone " << baseline.peak_resident_bytes << "\n"
                  << report(baseline));
      REQUIRE(run.exit_status == 0);
      REQUIRE(baseline.exit_status == 0);
      const double held = run.peak_resident_bytes - baseline.peak_resident_bytes;
      CHECK(held <= estimate.bytes);
      largest = std::max(largest, held);
    }
    // Not far above the largest part either, so that no machine refuses a chain that fits: the
    // estimate counts a Krylov basis for every chain, which only a stiff one builds.
    if (c.stiff) {
      INFO(c.name << ": estimate " << estimate.bytes << " bytes, largest part " << largest);
      CHECK(largest >= estimate.bytes / 2);
    }
  }
}

}  // namespace
}  // namespace crawlq::cli_test
