#include "sim/trace_observer.hpp"

#include <fmt/format.h>

namespace crawlq::sim {

TraceObserver::TraceObserver(std::ostream& out) : out_(out) {
  out_ << "time,event,level,robots,lost,expired\n";
}

void TraceObserver::on_batch(double, int batch, int accepted) {
  lost_ += batch - accepted;
  pending_ = fmt::format("batch of {}", batch);
}

void TraceObserver::on_served(double, double) { pending_ = "served"; }

void TraceObserver::on_expired(double, double) {
  ++expired_;
  pending_ = "expired";
}

void TraceObserver::on_state(double time, int level, int robots) {
  if (pending_.empty() && robots == robots_) return;
  const std::string event = pending_.empty() ? "robots" : pending_;
  out_ << fmt::format("{:.9g},{},{},{},{},{}\n", time, event, level, robots, lost_, expired_);
  robots_ = robots;
  pending_.clear();
  ++rows_;
}

}  // namespace crawlq::sim
