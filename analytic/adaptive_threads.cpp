#include "analytic/adaptive_threads.hpp"

#include <dirent.h>
#include <sched.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "model/thread_count.hpp"

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

}  // namespace

std::optional<CoreTime> process_core_time() {
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return std::nullopt;
  CoreTime total;
  bool any = false;
  while (const dirent* task = readdir(tasks)) {
    if (task->d_name[0] == '.') continue;
    const std::string path = std::string("/proc/self/task/") + task->d_name + "/schedstat";
    std::FILE* figures = std::fopen(path.c_str(), "r");
    if (figures == nullptr) continue;  // a thread that has just ended
    unsigned long long running_ns = 0, waiting_ns = 0;
    if (std::fscanf(figures, "%llu %llu", &running_ns, &waiting_ns) == 2) {
      total.running += 1e-9 * static_cast<double>(running_ns);
      total.waiting += 1e-9 * static_cast<double>(waiting_ns);
      any = true;
    }
    std::fclose(figures);
  }
  closedir(tasks);
  return any ? std::optional(total) : std::nullopt;
}

int cores_for_process() {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) return std::max(1, CPU_COUNT(&allowed));
  return model::available_cores();
}

int threads_for_share(int requested, int cores, double share) {
  if (!(share > 0)) return 1;
  const double free_cores = cores + requested - static_cast<double>(cores) / std::min(share, 1.0);
  return std::clamp(static_cast<int>(std::floor(free_cores + 0.5)), 1, requested);
}

AdaptiveThreads::AdaptiveThreads(int requested)
    : AdaptiveThreads(requested, mode_from_environment(), cores_for_process(), steady_seconds,
                      process_core_time, &process_held_cores()) {}

AdaptiveThreads::AdaptiveThreads(int requested, Mode mode, int cores, Clock clock, Sampler sampler,
                                 HeldCores* held)
    : requested_(std::max(1, requested)),
      mode_(mode),
      cores_(std::max(1, cores)),
      clock_(std::move(clock)),
      sampler_(std::move(sampler)),
      held_(held),
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
  back_at_ = now + std::max(wait_before_trying_, kWaitPerTrySecond * (now - interval_start_));
  wait_before_trying_ = std::min(2 * wait_before_trying_, kLongestWaitSeconds);
  if (held_ == nullptr) return;
  const std::lock_guard lock(held_->mutex);
  held_->until = back_at_;
  held_->threads = fit;
  held_->wait = wait_before_trying_;
}

void AdaptiveThreads::release() {
  wait_before_trying_ = kFirstWaitSeconds;
  if (held_ == nullptr) return;
  const std::lock_guard lock(held_->mutex);
  held_->until = 0;
}

int AdaptiveThreads::next_step() {
  if (requested_ == 1 || mode_ == Mode::kFixed) return requested_;
  if (mode_ == Mode::kAlternate) return current_ = current_ == requested_ ? 1 : requested_;
  const double now = clock_();
  if (current_ < requested_) {
    if (now < back_at_) return current_;
    current_ = requested_;
    start_interval(now);
    return current_;
  }
  // The first step starts the first interval, or goes on from the last computation's verdict.
  if (!started_) {
    started_ = true;
    if (held_ != nullptr) {
      const std::lock_guard lock(held_->mutex);
      if (now < held_->until && held_->threads < requested_) {
        current_ = held_->threads;
        back_at_ = held_->until;
        wait_before_trying_ = held_->wait;
        return current_;
      }
    }
    start_interval(now);
    return current_;
  }
  if (now - interval_start_ < kIntervalSeconds) return current_;
  const std::optional<CoreTime> sample = read_figures(now);
  if (sample && interval_base_) {
    const double running = sample->running - interval_base_->running;
    const double waiting = sample->waiting - interval_base_->waiting;
    // A thread that ended takes its figures with it: such an interval says nothing.
    if (running > 0 && waiting >= 0) {
      const int fit = threads_for_share(requested_, cores_, running / (running + waiting));
      if (fit < requested_) {
        hold(now, fit);
        return current_;
      }
      release();
    }
  }
  interval_start_ = now;
  interval_base_ = sample;
  return current_;
}

}  // namespace crawlq::analytic
