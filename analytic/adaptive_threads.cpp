#include "analytic/adaptive_threads.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

namespace crawlq::analytic {

namespace {

// Long enough for the scheduler to have shared the cores out (its slices are a few milliseconds),
// short against a solve worth two threads: on a quiet machine our threads waited at most 14% of an
// interval (K = 16 to 20), where sharing a core with one other program they wait half of it.
constexpr double kIntervalSeconds = 0.005;
constexpr double kFirstWaitSeconds = 0.1;
constexpr double kLongestWaitSeconds = 1.6;
// A try on every thread while the cores are held is slow (a step took 3.5 times one thread's time,
// two cores with one kept busy): the wait before the next is at least this many times its length.
constexpr double kWaitPerTrySecond = 20;
// The shortest window of the cores' idle time that tells a core come free: /proc/stat counts in
// ticks of 10 ms a core.
constexpr double kIdleWindowSeconds = 0.04;

AdaptiveThreads::Mode mode_from_environment() {
  const char* text = std::getenv("CRAWLQ_THREAD_ADAPTATION");
  if (text == nullptr) return AdaptiveThreads::Mode::kFollowCores;
  const std::string_view mode(text);
  if (mode == "off") return AdaptiveThreads::Mode::kFixed;
  if (mode == "alternate") return AdaptiveThreads::Mode::kAlternate;
  return AdaptiveThreads::Mode::kFollowCores;
}

HeldCores& process_held_cores() {
  static HeldCores held;
  return held;
}

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int rounded_cores(double cores) { return static_cast<int>(std::floor(cores + 0.5)); }

}  // namespace

int threads_for_region(int requested) {
  // A computation of one step: its first step's threads, and what it learns left for the next.
  return AdaptiveThreads(requested).next_step();
}

int threads_for_share(int requested, int cores, double share) {
  if (!(share > 0)) return 1;
  const double free_cores = cores + requested - static_cast<double>(cores) / std::min(share, 1.0);
  return std::clamp(rounded_cores(free_cores), 1, requested);
}

AdaptiveThreads::AdaptiveThreads(int requested)
    : AdaptiveThreads(requested, mode_from_environment(), cores_for_process(), steady_seconds,
                      process_core_time, &process_held_cores(),
                      MachineFigures{other_runnable_tasks, allowed_cores_idle_seconds}) {}

AdaptiveThreads::AdaptiveThreads(int requested, Mode mode, int cores, Clock clock, Sampler sampler,
                                 HeldCores* held, MachineFigures machine)
    : requested_(std::max(1, requested)),
      mode_(mode),
      cores_(std::max(1, cores)),
      clock_(std::move(clock)),
      sampler_(std::move(sampler)),
      held_(held),
      machine_(std::move(machine)),
      current_(requested_),
      wait_before_trying_(kFirstWaitSeconds) {}

void AdaptiveThreads::start_interval(double now) {
  interval_start_ = now;
  if (held_ != nullptr) {
    const std::lock_guard lock(held_->mutex);
    if (held_->last && now - held_->last_at < kIntervalSeconds) {
      interval_start_ = held_->last_at;
      interval_base_ = held_->last;
      return;
    }
  }
  interval_base_ = read_figures(now);
}

std::optional<CoreTime> AdaptiveThreads::read_figures(double now) {
  std::optional<CoreTime> figures = sampler_();
  if (held_ != nullptr) {
    const std::lock_guard lock(held_->mutex);
    held_->last = figures;
    held_->last_at = now;
  }
  return figures;
}

void AdaptiveThreads::hold(double now, int fit) {
  current_ = fit;
  // A computation that starts held has just read the figures: the window starts there.
  if (!idle_mark_ || idle_mark_->at != now) mark_idle(now);
  idle_core_seen_ = false;
  double confirmed_until = now;
  if (idle_mark_ && !idle_misled_) {
    back_at_ = now;  // the readings of the cores' idle time say when
    confirmed_until = now + kIdleWindowSeconds;
  } else {
    back_at_ = now + std::max(wait_before_trying_, kWaitPerTrySecond * (now - interval_start_));
    wait_before_trying_ = std::min(2 * wait_before_trying_, kLongestWaitSeconds);
  }
  if (held_ == nullptr) return;
  const std::lock_guard lock(held_->mutex);
  held_->until = std::max(back_at_, confirmed_until);
  held_->threads = fit;
  held_->wait = wait_before_trying_;
}

void AdaptiveThreads::release() {
  wait_before_trying_ = kFirstWaitSeconds;
  idle_misled_ = false;
  if (held_ == nullptr) return;
  const std::lock_guard lock(held_->mutex);
  held_->until = 0;
}

std::optional<int> AdaptiveThreads::threads_for_runnable_tasks() const {
  if (!machine_.other_runnable_tasks) return std::nullopt;
  const std::optional<int> other_tasks = machine_.other_runnable_tasks();
  if (!other_tasks) return std::nullopt;
  return std::clamp(cores_ - *other_tasks, 1, requested_);
}

void AdaptiveThreads::mark_idle(double now) {
  idle_mark_.reset();
  idle_core_seen_ = false;
  if (machine_.idle_seconds) {
    const std::optional<double> idle = machine_.idle_seconds();
    const std::optional<CoreTime> own = idle ? sampler_() : std::nullopt;
    if (own) idle_mark_ = {now, *idle, own->running};
  }
  if (held_ == nullptr) return;
  const std::lock_guard lock(held_->mutex);
  held_->idle = idle_mark_;
}

std::optional<double> AdaptiveThreads::free_cores_since_mark(double now, int ours) {
  if (!idle_mark_ || now - idle_mark_->at < kIdleWindowSeconds) return std::nullopt;
  const IdleMark since = *idle_mark_;
  mark_idle(now);
  if (!idle_mark_) return std::nullopt;
  const double idle = idle_mark_->idle_seconds - since.idle_seconds;
  const double own = idle_mark_->own_running_seconds - since.own_running_seconds;
  return (idle + own) / (now - since.at) - ours;
}

void AdaptiveThreads::confirm_hold(double until) {
  if (held_ == nullptr) return;
  const std::lock_guard lock(held_->mutex);
  held_->until = std::max(held_->until, until);
  held_->threads = current_;
}

int AdaptiveThreads::first_step(double now) {
  started_ = true;
  bool first_in_process = true;
  std::optional<IdleMark> held_since;
  int held_threads = requested_;
  if (held_ != nullptr) {
    const std::lock_guard lock(held_->mutex);
    first_in_process = !held_->any_started;
    held_->any_started = true;
    if (held_->until > 0 && held_->threads < requested_) {
      held_threads = held_->threads;
      if (now < held_->until) {  // the last computation's verdict holds
        current_ = held_threads;
        back_at_ = held_->until;
        wait_before_trying_ = held_->wait;
        idle_mark_ = held_->idle;
        return current_;
      }
      held_since = held_->idle;
    }
  }
  // A verdict run out, but the cores stayed busy since: no try.
  if (held_since) {
    idle_mark_ = held_since;
    const std::optional<double> free_cores = free_cores_since_mark(now, held_threads);
    if (free_cores && rounded_cores(*free_cores) < 1) {
      interval_start_ = now;
      hold(now, held_threads);
      return current_;
    }
  }
  if (first_in_process) {
    if (const std::optional<int> fit = threads_for_runnable_tasks(); fit && *fit < requested_) {
      interval_start_ = now;
      hold(now, *fit);
      return current_;
    }
  }
  start_interval(now);
  return current_;
}

int AdaptiveThreads::held_step(double now) {
  if (idle_mark_) {
    if (const std::optional<double> free_cores = free_cores_since_mark(now, current_)) {
      idle_core_seen_ = rounded_cores(*free_cores) >= 1;
      if (!idle_core_seen_) confirm_hold(now + kIdleWindowSeconds);
    }
    if (idle_mark_ && !idle_core_seen_) return current_;
  }
  if (now < back_at_) return current_;
  tried_on_idle_ = idle_mark_.has_value();
  current_ = requested_;
  start_interval(now);
  return current_;
}

int AdaptiveThreads::next_step() {
  if (requested_ == 1 || mode_ == Mode::kFixed) return requested_;
  if (mode_ == Mode::kAlternate) return current_ = current_ == requested_ ? 1 : requested_;
  const double now = clock_();
  if (!started_) return first_step(now);
  if (current_ < requested_) return held_step(now);
  if (now - interval_start_ < kIntervalSeconds) return current_;
  const std::optional<CoreTime> sample = read_figures(now);
  if (sample && interval_base_) {
    const double running = sample->running - interval_base_->running;
    const double waiting = sample->waiting - interval_base_->waiting;
    // A thread that ended takes its figures with it: such an interval says nothing.
    if (running > 0 && waiting >= 0) {
      int fit = threads_for_share(requested_, cores_, running / (running + waiting));
      // Our own threads' waits to wake count as kept off a core too (on a VM whose idle cores
      // halt, a quiet interval showed held one time in four): fewer threads only where other
      // tasks are runnable too.
      if (fit < requested_) fit = std::max(fit, threads_for_runnable_tasks().value_or(fit));
      if (fit < requested_) {
        idle_misled_ = tried_on_idle_;
        tried_on_idle_ = false;
        hold(now, fit);
        return current_;
      }
      tried_on_idle_ = false;
      release();
    }
  }
  interval_start_ = now;
  interval_base_ = sample;
  return current_;
}

}  // namespace crawlq::analytic
