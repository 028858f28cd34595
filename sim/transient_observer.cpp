#include "sim/transient_observer.hpp"

#include <algorithm>

namespace crawlq::sim {

TransientObserver::TransientObserver(double origin, std::vector<double> moments)
    : origin_(origin),
      moments_(std::move(moments)),
      levels_(moments_.size(), 0),
      robots_(moments_.size(), 0),
      stretches_(moments_.size()) {}

void TransientObserver::on_interval(double from, double length, int level, int robots) {
  const double to = from + length;
  const std::size_t n = moments_.size();
  // The moments inside [from, to): passed for good; one at `to` itself is written now and again
  // by the interval that starts there, whose state holds at it.
  for (; state_next_ < n && moments_[state_next_] < to; ++state_next_) {
    levels_[state_next_] = level;
    robots_[state_next_] = robots;
  }
  for (std::size_t k = state_next_; k < n && moments_[k] == to; ++k) {
    levels_[k] = level;
    robots_[k] = robots;
  }
  // The interval's time, cut at the moments into their stretches.
  double at = std::max(from, origin_);
  while (at < to && interval_next_ < n) {
    const double end = std::min(to, moments_[interval_next_]);
    TransientStretch& stretch = stretches_[interval_next_];
    const double span = std::max(0.0, end - at);
    stretch.robot_time += span * robots;
    stretch.page_time += span * level;
    if (level == 0) stretch.empty_time += span;
    at = std::max(at, end);
    if (at >= moments_[interval_next_]) ++interval_next_;
  }
}

std::size_t TransientObserver::stretch_of(double time) {
  while (event_next_ < moments_.size() && moments_[event_next_] < time) ++event_next_;
  return event_next_;
}

void TransientObserver::on_batch(double time, int batch, int accepted) {
  const std::size_t i = stretch_of(time);
  if (i == stretches_.size()) return;
  stretches_[i].offered += batch;
  stretches_[i].lost += batch - accepted;
}

void TransientObserver::on_served(double time, double /*sojourn*/) {
  if (const std::size_t i = stretch_of(time); i < stretches_.size()) ++stretches_[i].served;
}

void TransientObserver::on_expired(double time, double /*sojourn*/) {
  if (const std::size_t i = stretch_of(time); i < stretches_.size()) ++stretches_[i].obsolete;
}

}  // namespace crawlq::sim
