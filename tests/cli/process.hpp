#pragma once
// Runs a program to completion with stdout and stderr captured apart, as a shell would see them.
#include <chrono>
#include <string>
#include <vector>

namespace crawlq::cli_test {

struct ProcessResult {
  std::string command;   // argv joined by spaces, for failure reports
  int exit_status = -1;  // the program's exit status; 128 + signal when a signal ended it
  bool signaled = false;
  bool timed_out = false;  // killed for running past the time limit
  std::string out;         // everything written to stdout
  std::string err;         // everything written to stderr
};

// argv[0] is the program's path; no shell is involved, so arguments need no quoting. A program
// still running after `limit` is killed (SIGKILL), so that a hang fails one test instead of the
// suite.
ProcessResult run_process(const std::vector<std::string>& argv,
                          std::chrono::milliseconds limit = std::chrono::seconds(30));

}  // namespace crawlq::cli_test
