#pragma once
// A line on stderr, rewritten in place, for work that may outlast a person's patience: the stage,
// what is done, the time so far and, where the share done is known, an estimate of the time left.
// It shows on a terminal (pipes and files stay clean unless CRAWLQ_PROGRESS=1 asks for it, when it
// shows from the start), only after two seconds there, and a ticker
// keeps the seconds moving while one long step runs. The line is cleared when the work ends.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace crawlq::app {

class ProgressLine {
 public:
  // `what` opens the line ("simulate paper-example-1"). `enabled` false: nothing is ever shown.
  explicit ProgressLine(std::string what, bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Whether a person asked for the line: CRAWLQ_PROGRESS=1 (or any value but 0) always,
  // CRAWLQ_PROGRESS=0 never, and otherwise when stderr is a terminal.
  static bool wanted();

  // The step under way ("the sojourn times"); the share done is unknown until `done` is called.
  void stage(std::string text);
  // `done` of `total` units ("replications"); a total of 0 is unknown. The time left is the time so
  // far scaled by what remains, once some is done.
  void done(double done, double total, std::string unit);
  // The line cleared and kept off until the next stage() or done(): while a part of the results
  // is printed between steps.
  void pause();
  // The line cleared (the ticker stopped): before the results are printed.
  void finish();

 private:
  // `ticked`: called by the ticker, the seconds alone having moved.
  void show_locked(bool ticked);
  void tick();

  std::string what_;
  bool enabled_;
  std::chrono::duration<double> quiet_for_;  // nothing is shown before
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string stage_, unit_;
  double done_ = 0, total_ = 0;
  std::size_t shown_width_ = 0;
  bool in_place_ = false;  // a terminal: the line is rewritten; a file: a line per step
  bool finished_ = false;
  bool paused_ = false;
  std::thread ticker_;
};

}  // namespace crawlq::app
