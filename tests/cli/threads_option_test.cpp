// --threads: a sane upper bound on every command that takes it, and a run that goes on (on the
// threads that did start, said on stderr) where the system lets fewer threads start than asked,
// never std::terminate.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/thread_count.hpp"
#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {
namespace {

using std::chrono::seconds;

const std::string kPaper = shipped("paper-example-1.yaml");

}  // namespace

TEST_CASE("threads: --threads beyond 1024, or not a whole number, is refused naming the flag",
          "[cli][threads]") {
  const std::vector<std::vector<std::string>> commands{
      {"solve", kPaper},
      {"optimize", kPaper},
      {"simulate", kPaper, "--replications", "2", "--horizon", "10"},
      {"validate", kPaper, "--replications", "2", "--horizon", "10"},
      {"sweep", kPaper, "--param", "capacity", "--values", "2"},
      {"refresh", shipped("refresh-paper-example.yaml")},
      {"reproduce", "--quick", "--sections", "refresh"},
  };
  for (const auto& command : commands) {
    for (const std::string value : {"1e9", "1025", "-1", "2.5", "many"}) {
      std::vector<std::string> args = command;
      args.insert(args.end(), {"--threads", value});
      INFO(command.front() << " --threads " << value);
      check_refused(crawlq(args), {"--threads", "from 0 (every core) to 1024"});
    }
  }
  CHECK(model::kMostThreads == 1024);
  const ProcessResult most = crawlq({"solve", kPaper, "--threads", "1024", "--json"});
  INFO(report(most));
  CHECK(most.exit_status == 0);
}

TEST_CASE("threads that cannot start: the run goes on with those that did, and says so",
          "[cli][threads]") {
  // Three threads start in each pool and the fourth fails as under a pids limit (`ulimit -u`, or an
  // address space too small for 300 stacks): model/worker_threads.hpp's CRAWLQ_THREADS_THAT_START.
  const std::vector<std::vector<std::string>> commands{
      {"simulate", kPaper, "--replications", "300", "--horizon", "500", "--seed", "3", "--json"},
      {"optimize", kPaper, "--class", "all", "--json"},
      {"sweep", kPaper, "--param", "capacity", "--values", "2,3,4,5,6,7,8,9,10", "--json"},
  };
  for (const auto& command : commands) {
    std::vector<std::string> limited{"/usr/bin/env", "CRAWLQ_THREADS_THAT_START=3", CRAWLQ_BINARY};
    limited.insert(limited.end(), command.begin(), command.end());
    limited.insert(limited.end(), {"--threads", "300"});
    const ProcessResult run = run_process(limited, seconds(300));
    INFO(report(run));
    REQUIRE(run.exit_status == 0);
    CHECK(run.err.find("crawlq: only 4 of ") != std::string::npos);
    CHECK(run.err.find("threads could start") != std::string::npos);
    // The same numbers as one thread gives (the timings aside).
    std::vector<std::string> one = command;
    one.insert(one.end(), {"--threads", "1"});
    CHECK(without_timing(json_of(run)) == without_timing(json_of(crawlq(one, seconds(300)))));
  }
}

}  // namespace crawlq::cli_test
