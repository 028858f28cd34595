#pragma once
// One sample path as CSV, for teaching: a row per page event (batch, served, expired) and per
// change of the active robots, with the level and robots after it and the pages lost and expired so
// far.
#include <atomic>
#include <limits>
#include <ostream>
#include <string>

#include "sim/observer.hpp"

namespace crawlq::sim {

class TraceObserver final : public Observer {
 public:
  // Stops writing, and raises stop(), once `most_bytes` are written: a long horizon would fill the
  // disk.
  explicit TraceObserver(std::ostream& out,
                         double most_bytes = std::numeric_limits<double>::infinity());
  const std::atomic<bool>& stop() const { return full_; }
  void on_interval(double, double, int, int) override {}
  void on_batch(double time, int batch, int accepted) override;
  void on_served(double time, double sojourn) override;
  void on_expired(double time, double sojourn) override;
  void on_state(double time, int level, int robots) override;
  bool wants_state() const override { return true; }
  long rows() const { return rows_; }

 private:
  std::ostream& out_;
  std::string pending_;  // the event of the current step, empty for a phase move only
  int robots_ = -1;
  long lost_ = 0, expired_ = 0, rows_ = 0;
  double most_bytes_, bytes_ = 0;
  std::atomic<bool> full_{false};
};

}  // namespace crawlq::sim
