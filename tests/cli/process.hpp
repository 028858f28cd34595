#pragma once
// Runs a program to completion with stdout and stderr captured apart, as a shell would see them.
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace crawlq::cli_test {

struct ProcessResult {
  std::string command;   // argv joined by spaces, for failure reports
  int exit_status = -1;  // the program's exit status; 128 + signal when a signal ended it
  bool signaled = false;
  bool timed_out = false;          // killed for running past the time limit
  std::string out;                 // everything written to stdout
  std::string err;                 // everything written to stderr
  double peak_resident_bytes = 0;  // the most memory it held at once (ru_maxrss)
};

// argv[0] is the program's path; no shell is involved, so arguments need no quoting. A program
// still running after `limit` is killed (SIGKILL), so that a hang fails one test instead of the
// suite. `address_space_bytes` (0: none) caps the program's virtual memory (RLIMIT_AS), so that an
// input that makes it allocate without bound fails fast instead of taking the machine's memory;
// not under AddressSanitizer, whose shadow memory alone is terabytes of address space.
ProcessResult run_process(const std::vector<std::string>& argv,
                          std::chrono::milliseconds limit = std::chrono::seconds(30),
                          std::size_t address_space_bytes = 0);

}  // namespace crawlq::cli_test
