#pragma once
// What a run of either simulation loop (simulator.hpp's events, phase_level_run.hpp's phases) is
// told about when to stop early, and what it reports: apart, so that neither loop includes the
// other.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>

namespace crawlq::sim {

struct RunStatistics {
  std::uint64_t events = 0;  // robots' phase moves, service completions and expiries
  double simulated = 0;      // the time the run reached
  bool complete = true;      // false: a limit stopped it before `until`
};

// When a run stops before its horizon: after an event budget (a pilot that measures rates), or at a
// wall-clock deadline (a time limit honoured within a replication, not only between them).
struct RunLimits {
  std::uint64_t max_events = std::numeric_limits<std::uint64_t>::max();
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  const std::atomic<bool>* stop =
      nullptr;  // set by an observer that has had enough (a trace's size cap)
};

}  // namespace crawlq::sim
