#include "sim/trace_observer.hpp"

#include <fmt/format.h>

namespace crawlq::sim {

TraceObserver::TraceObserver(std::ostream& out, double most_bytes)
    : out_(out), most_bytes_(most_bytes) {
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
  if (full_ || (pending_.empty() && robots == robots_)) return;
  const std::string event = pending_.empty() ? "robots" : pending_;
  const std::string row =
      fmt::format("{:.9g},{},{},{},{},{}\n", time, event, level, robots, lost_, expired_);
  bytes_ += static_cast<double>(row.size());
  if (bytes_ > most_bytes_) {
    full_ = true;
    return;
  }
  out_ << row;
  robots_ = robots;
  pending_.clear();
  ++rows_;
}

}  // namespace crawlq::sim
