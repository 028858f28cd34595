// Work bounded before it starts (issue 28): `auto` never picks a solver that will not converge, and
// a search that cannot end in reasonable time is refused with its count, exit 2, before any work.
#include <catch2/catch.hpp>
#include <string>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using nlohmann::json;

// teaching-two-robots with an Erlang service of `phases` phases.
std::string erlang_service(const TempDirectory& dir, int phases) {
  return dir.write(
      "erlang.yaml",
      replace_once(read_text(shipped("teaching-two-robots.yaml")),
                   "service: {exponential: {rate: 2}}",
                   "service: {erlang: {phases: " + std::to_string(phases) + ", mean: 0.5}}"));
}

std::string poisson_robots(const TempDirectory& dir, int robots) {
  std::string modes;
  for (int r = 1; r <= robots; ++r)
    modes += (r > 1 ? ", " : "") + std::string("{rate: ") + std::to_string(0.01 * r) + "}";
  return dir.write(
      "robots.yaml",
      "capacity: 4\narrivals: {kind: poisson, modes: [" + modes +
          "]}\nservice: {exponential: {rate: 2}}\nobsolescence: {exponential: {mean: 5}}\n"
          "costs: {loss: 5, obsolescence: 10, sojourn: 2, robot: 0.01, starvation: 20}\n");
}

}  // namespace

TEST_CASE(
    "solve and optimize with an Erlang-500 service answer by sparse LU, where BiCGSTAB stalled",
    "[cli][work]") {
  // 2,001 states in levels of 500: auto ran BiCGSTAB, which stopped after 5,000 iterations (exit
  // 1); with Erlang-1000 it took 111 s to fail and optimize never ended.
  TempDirectory dir;
  const std::string file = erlang_service(dir, 500);
  const ProcessResult solved = crawlq({"solve", file, "--json"});
  INFO(report(solved));
  REQUIRE(solved.exit_status == 0);
  const json j = json_of(solved);
  CHECK(j.at("method") == "sparse-lu");
  CHECK(j.at("states") == 2001);
  const ProcessResult same = crawlq({"solve", file, "--method", "block-recursion", "--json"});
  REQUIRE(same.exit_status == 0);
  check_same_measures(j, json_of(same), 1e-9);

  const ProcessResult optimized = crawlq({"optimize", file, "--json"});
  INFO(report(optimized));
  REQUIRE(optimized.exit_status == 0);
  CHECK(json_of(optimized).at("policies_solved") == 6);
}

TEST_CASE(
    "optimize with 2,000 robots is refused with its count, exit 2, for every class and search",
    "[cli][work][bad-input]") {
  // The local search's grid was built first: 2,001,000 vectors of 1,999 thresholds, std::bad_alloc
  // at 8 GB (exit 1); 600 robots still ran at 120 s.
  TempDirectory dir;
  const std::string file = poisson_robots(dir, 2000);
  for (const char* c : {"thresholds", "levels", "phase-aware", "memory", "markov", "all"})
    for (const char* s : {"auto", "exhaustive", "local"}) {
      const ProcessResult run = crawlq({"optimize", file, "--class", c, "--search", s, "--json"});
      INFO(c << " " << s << "\n" << report(run));
      if (run.err.find("--search local: ") != std::string::npos)
        continue;  // a class searched its own way
      check_refused(run, {"robots.yaml", "2000"});
    }
}

TEST_CASE(
    "optimize on paper-real-data at capacity 100,000 is refused, naming the capacity that fits",
    "[cli][work][bad-input]") {
  TempDirectory dir;
  const std::string file = dir.write(
      "long.yaml",
      replace_once(read_text(shipped("paper-real-data.yaml")), "capacity: 20", "capacity: 100000"));
  check_refused(crawlq({"optimize", file}),
                {"long.yaml", "capacity 100000", "policies", "or less fits"});
  check_refused(crawlq({"optimize", file, "--class", "markov"}),
                {"--class markov", "or less fits"});
}

}  // namespace crawlq::cli_test
