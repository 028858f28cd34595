#include "app/progress_line.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace crawlq::app {

namespace {

constexpr auto kQuietFor = std::chrono::seconds(2);
constexpr const char* kForced = "CRAWLQ_PROGRESS";

std::string seconds_text(double seconds) {
  if (seconds < 1) return "under 1 s";
  if (seconds < 90) return fmt::format("{:.0f} s", seconds);
  return fmt::format("{:.0f} min {:02.0f} s", std::floor(seconds / 60),
                     seconds - 60 * std::floor(seconds / 60));
}

}  // namespace

ProgressLine::ProgressLine(std::string what, bool enabled)
    : what_(std::move(what)),
      enabled_(enabled),
      quiet_for_(std::getenv(kForced) ? std::chrono::duration<double>(0) : kQuietFor),
      in_place_(isatty(fileno(stderr)) != 0) {
  if (enabled_) ticker_ = std::thread([this] { tick(); });
}

ProgressLine::~ProgressLine() { finish(); }

bool ProgressLine::wanted() {
  if (const char* forced = std::getenv(kForced)) return std::string_view(forced) != "0";
  return isatty(fileno(stderr)) != 0;
}

void ProgressLine::stage(std::string text) {
  if (!enabled_) return;
  const std::lock_guard lock(mutex_);
  stage_ = std::move(text);
  paused_ = false;
  done_ = total_ = 0;
  unit_.clear();
  show_locked(false);
}

void ProgressLine::done(double done, double total, std::string unit) {
  if (!enabled_) return;
  const std::lock_guard lock(mutex_);
  done_ = done;
  total_ = total;
  unit_ = std::move(unit);
  paused_ = false;
  show_locked(false);
}

void ProgressLine::pause() {
  if (!enabled_) return;
  const std::lock_guard lock(mutex_);
  paused_ = true;
  if (in_place_ && shown_width_ > 0) {
    fmt::print(stderr, "\r{:{}}\r", "", shown_width_);
    std::fflush(stderr);
  }
}

void ProgressLine::finish() {
  if (!enabled_) return;
  {
    const std::lock_guard lock(mutex_);
    if (finished_) return;
    finished_ = true;
    if (shown_width_ > 0) fmt::print(stderr, "\r{:{}}\r", "", shown_width_);
    std::fflush(stderr);
  }
  wake_.notify_all();
  ticker_.join();
}

void ProgressLine::show_locked(bool ticked) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (finished_ || paused_ || elapsed < quiet_for_.count()) return;
  std::string line = fmt::format("crawlq: {}", what_);
  if (!stage_.empty()) line += fmt::format(": {}", stage_);
  if (!unit_.empty())
    line += total_ > 0 ? fmt::format(", {:g} of {:g} {}", done_, total_, unit_)
                       : fmt::format(", {:g} {}", done_, unit_);
  line += fmt::format(", {} so far", seconds_text(elapsed));
  if (total_ > 0 && done_ > 0 && done_ < total_) {
    const double left = elapsed * (total_ - done_) / done_;
    line += left < 1 ? std::string(", under 1 s left")
                     : fmt::format(", about {} left", seconds_text(left));
  }
  if (!in_place_) {
    // A log file gets a line per step and count, not one a second.
    if (!ticked) fmt::print(stderr, "{}\n", line);
    return;
  }
  const std::size_t width = line.size();
  fmt::print(stderr, "\r{:{}}", line, std::max(width, shown_width_));
  std::fflush(stderr);
  shown_width_ = std::max(width, shown_width_);
}

void ProgressLine::tick() {
  std::unique_lock lock(mutex_);
  while (!finished_) {
    wake_.wait_for(lock, std::chrono::seconds(1));
    show_locked(true);
  }
}

}  // namespace crawlq::app
