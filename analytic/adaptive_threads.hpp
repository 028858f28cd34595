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
// The machine's figures, where the kernel gives them, spare those tries (core_figures.hpp):
// - the process's first computation, or parallel region (threads_for_region), starts on the threads
//   that the tasks runnable now leave a core each (/proc/loadavg), not on every thread for an
//   interval: at K = 16 the solve reached its first verdict 8 to 17 ms in, where the whole run
//   takes 0.3 s;
// - a verdict of held cores stands only where other tasks are runnable too: our own threads' waits
//   to wake count as kept off a core, and on a VM whose idle cores halt a quiet first interval
//   said held one time in four;
// - while on fewer threads, a try waits until a core is free to the computation: idle (/proc/stat,
//   read every 40 ms, as it counts in ticks of 10 ms), or used by another of our threads. The try
//   comes at the first reading that finds one. Only a try that such a reading led to and that
//   found the cores held again goes back to the waits above: the host's figures in a container may
//   show cores idle that its share of the machine does not give;
// - a computation that follows one on fewer threads goes on with them while the cores stayed busy.
//
// CRAWLQ_THREAD_ADAPTATION=off keeps every step on the threads given (the test suite sets it, so
// that a test's threads do not depend on the machine's load); =alternate switches between them and
// one at every step (for tests: the same bits whatever the switches); unset or =follow-cores, the
// threads follow the cores as above.
#include <functional>
#include <mutex>
#include <optional>

#include "analytic/core_figures.hpp"

namespace crawlq::analytic {

// The threads that would each get a core, from the share of their runnable time that requested
// threads got on `cores` cores: if the scheduler shares the cores fairly among our threads and L
// other runnable tasks, share = cores / (requested + L), so cores - L = cores + requested -
// cores / share are free; rounded, between 1 and requested.
int threads_for_share(int requested, int cores, double share);

// The machine's own figures (core_figures.hpp); either may be missing, and then the computation
// does as it would without it.
struct MachineFigures {
  std::function<std::optional<int>()> other_runnable_tasks;
  std::function<std::optional<double>()> idle_seconds;
};

// The time the cores we may use had spent idle at a moment, and our threads on a core: the cores
// free to a computation are those idle and those our other threads used (an OpenMP thread that
// spins, with OMP_WAIT_POLICY=active, while the computation runs on fewer).
struct IdleMark {
  double at = 0;
  double idle_seconds = 0;
  double own_running_seconds = 0;
};

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
  std::optional<IdleMark> idle;  // the cores' idle time last read
  bool any_started = false;      // a computation of this process has taken its first step
};

// The threads for a parallel region outside a computation's steps (a solve's first zeroing, the
// tagged page's moments): those of the process's last verdict while other programs hold cores, or
// of the machine's runnable tasks where nothing has started yet; every thread otherwise. A region
// on every thread waits for the one that shares a core with another program.
int threads_for_region(int requested);

class AdaptiveThreads {
 public:
  using Clock = std::function<double()>;  // seconds, monotonic
  using Sampler = std::function<std::optional<CoreTime>()>;
  enum class Mode { kFollowCores, kFixed, kAlternate };

  // `requested` threads (1 or more) in the mode that CRAWLQ_THREAD_ADAPTATION names.
  explicit AdaptiveThreads(int requested);
  // For tests: a given mode, core count, clock, sampler, shared verdict (none: nullptr) and
  // machine figures.
  AdaptiveThreads(int requested, Mode mode, int cores, Clock clock, Sampler sampler,
                  HeldCores* held, MachineFigures machine = {});

  // The threads for the step about to start; call once a step.
  int next_step();
  int requested() const { return requested_; }

 private:
  int first_step(double now);
  int held_step(double now);
  void start_interval(double now);
  std::optional<CoreTime> read_figures(double now);  // and leaves them for the others
  void hold(double now, int fit);                    // fit threads until back_at_
  void release();                                    // every thread is back
  std::optional<int> threads_for_runnable_tasks() const;
  void mark_idle(double now);  // starts a window of the cores' idle time
  // The cores free to `ours` threads of this computation since the mark; starts the next window.
  std::optional<double> free_cores_since_mark(double now, int ours);
  void confirm_hold(double until);  // for the computations that follow

  int requested_;
  Mode mode_;
  int cores_;
  Clock clock_;
  Sampler sampler_;
  HeldCores* held_;
  MachineFigures machine_;
  int current_;
  bool started_ = false;
  double interval_start_ = 0;
  std::optional<CoreTime> interval_base_;  // at the start of an interval on every thread
  double back_at_ = 0;                     // when to try every thread again
  double wait_before_trying_;
  std::optional<IdleMark> idle_mark_;  // where the cores' idle time tells of a core come free
  bool idle_core_seen_ = false;        // by the last reading
  bool tried_on_idle_ = false;         // the interval on every thread is a try a reading led to
  bool idle_misled_ = false;           // such a try found the cores held: the waits above again
};

}  // namespace crawlq::analytic
