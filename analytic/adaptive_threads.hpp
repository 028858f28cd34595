#pragma once
// The threads a long computation's next step runs on: all it was given while each of them gets a
// core, fewer while other programs hold some. A step waits for its slowest thread, so a thread that
// shares its core with another program's holds up the others: on two cores with one kept busy, a
// half-iteration of the stationary solve at K = 16 took 3.5 times one thread's time on two threads,
// and `solve --sojourn` at K = 18 1.28 times, with the threads' short spin before they sleep
// (app/runtime_environment.hpp) that a quiet machine needs. The threads' own scheduler figures
// tell, in a container too (where the machine's load is the host's): /proc/self/task/*/schedstat
// gives each thread's time on a core and its time kept waiting for one.
//
// The engines' sums never depend on the thread count, so a step on fewer threads gives the same
// bits. While on fewer, the computation goes back to all of them now and then (after 0.1 s, then
// twice as long each time the cores are still held, up to 1.6 s, and at least 20 times as long as
// the try took) to see whether the cores came free: one thread cannot tell whether another core is
// idle.
//
// CRAWLQ_THREAD_ADAPTATION=off keeps every step on the threads given (the test suite sets it, so
// that a test's threads do not depend on the machine's load); =alternate switches between them and
// one at every step (for tests: the same bits whatever the switches); unset or =follow-cores, the
// threads follow the cores as above.
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>

namespace crawlq::analytic {

// Seconds our threads spent on a core and runnable but kept off one, summed over the process's
// threads.
struct CoreTime {
  double running = 0;
  double waiting = 0;
};

// The process's threads' figures, or nothing where the kernel does not keep them.
std::optional<CoreTime> process_core_time();

// The cores this process may run on (its affinity mask), at least 1.
int cores_for_process();

// The threads that would each get a core, from the share of their runnable time that requested
// threads got on `cores` cores: if the scheduler shares the cores fairly among our threads and L
// other runnable tasks, share = cores / (requested + L), so cores - L = cores + requested -
// cores / share are free; rounded, between 1 and requested.
int threads_for_share(int requested, int cores, double share);

// What a computation learnt of the cores, for the next one in the process to start from (a solve
// and then its sojourn times would each pay a first interval on every thread otherwise).
struct HeldCores {
  std::mutex mutex;
  double until = 0;  // other programs held cores; every thread is tried again from then
  int threads = 0;   // that fit the cores left
  double wait = 0;   // before the try after that, if the cores are still held
  // The figures last read, and when: computations that follow one another quickly (a day's 147
  // stretches in 38 ms at K = 12) start from them, reading them once an interval, not once each.
  std::optional<CoreTime> last;
  double last_at = 0;
};

class AdaptiveThreads {
 public:
  using Clock = std::function<double()>;  // seconds, monotonic
  using Sampler = std::function<std::optional<CoreTime>()>;
  enum class Mode { kFollowCores, kFixed, kAlternate };

  // `requested` threads (1 or more) in the mode that CRAWLQ_THREAD_ADAPTATION names.
  explicit AdaptiveThreads(int requested);
  // For tests: a given mode, core count, clock, sampler and shared verdict (none: nullptr).
  AdaptiveThreads(int requested, Mode mode, int cores, Clock clock, Sampler sampler,
                  HeldCores* held);

  // The threads for the step about to start; call once a step.
  int next_step();
  int requested() const { return requested_; }

 private:
  void start_interval(double now);
  std::optional<CoreTime> read_figures(double now);  // and leaves them for the others
  void hold(double now, int fit);                    // fit threads until back_at_
  void release();                                    // every thread is back

  int requested_;
  Mode mode_;
  int cores_;
  Clock clock_;
  Sampler sampler_;
  HeldCores* held_;
  int current_;
  bool started_ = false;
  double interval_start_ = 0;
  std::optional<CoreTime> interval_base_;  // at the start of an interval on every thread
  double back_at_ = 0;                     // when to try every thread again
  double wait_before_trying_;
};

}  // namespace crawlq::analytic
