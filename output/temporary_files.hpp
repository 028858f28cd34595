#pragma once
// The temporary files of the outputs in progress (OutputFile's `TARGET.partial-PID`), removed when
// SIGINT, SIGTERM or SIGHUP ends the process: an interrupted `simulate --trace` would otherwise
// leave its 150 MB temporary forever. The handler makes only async-signal-safe calls (atomics on a
// fixed table, unlink of paths copied there beforehand, sigaction, raise) and then ends the process
// as the signal's default action would, so the exit status still says which signal it was.
//
// The handler is installed, once, for each of those signals whose action is still the default when
// the first temporary is registered: a signal the program ignores, or handles itself (Python's
// SIGINT, the lab's watcher thread), is left as it is.
#include <string>

namespace crawlq::output {

// A temporary in the table until released; an empty handle when the table is full or the path too
// long for it (the file is then not removed by a signal, only by the program).
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::string& path);
  ~TemporaryFile() { release(); }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  // Out of the table: the file was renamed into place or removed by the program.
  void release();
  bool registered() const { return slot_ >= 0; }

 private:
  int slot_ = -1;
};

// Removes every registered temporary and ends the process by `signal`'s default action, for code
// that learns of an interrupt another way (a child killed by the user's Ctrl-C).
[[noreturn]] void end_by_signal(int signal);

}  // namespace crawlq::output
