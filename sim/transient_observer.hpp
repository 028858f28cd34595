#pragma once
// What one replication of a transient sees: the state at each of the given moments, and over each
// stretch between two moments the pages offered, lost, made obsolete and served, with the time
// spent by the robots, by the idle indexer and by the pages in the system (the cost's rate terms).
#include <cstddef>
#include <vector>

#include "sim/observer.hpp"

namespace crawlq::sim {

struct TransientStretch {
  double offered = 0, lost = 0, obsolete = 0, served = 0;
  double robot_time = 0, empty_time = 0, page_time = 0;  // integrals over the stretch
};

class TransientObserver final : public Observer {
 public:
  // `moments`: absolute times, nondecreasing, none before `origin`; stretch i is (moments[i-1],
  // moments[i]] with moments[-1] = origin.
  TransientObserver(double origin, std::vector<double> moments);

  void on_interval(double from, double length, int level, int robots) override;
  void on_batch(double time, int batch, int accepted) override;
  void on_served(double time, double sojourn) override;
  void on_expired(double time, double sojourn) override;

  const std::vector<double>& moments() const { return moments_; }
  double origin() const { return origin_; }
  // The state at each moment (right-continuous: an event exactly at a moment counts as done).
  const std::vector<int>& levels() const { return levels_; }
  const std::vector<int>& robots() const { return robots_; }
  const std::vector<TransientStretch>& stretches() const { return stretches_; }

 private:
  // The stretch an event at `time` belongs to (moments_.size(): after the last moment).
  std::size_t stretch_of(double time);

  double origin_;
  std::vector<double> moments_;
  std::vector<int> levels_, robots_;
  std::vector<TransientStretch> stretches_;
  std::size_t state_next_ = 0, interval_next_ = 0, event_next_ = 0;  // moments passed by each
};

}  // namespace crawlq::sim
