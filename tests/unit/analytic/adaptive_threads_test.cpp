// The threads a step runs on: how many fit the cores left, when the computation drops to them and
// tries every thread again, what a later computation starts from, and the modes the suite uses.
// A clock and scheduler figures made up for each case, so every verdict is the same on any machine.
#include "analytic/adaptive_threads.hpp"

#include <catch2/catch.hpp>
#include <optional>
#include <vector>

namespace {

using crawlq::analytic::AdaptiveThreads;
using crawlq::analytic::CoreTime;
using crawlq::analytic::HeldCores;
using crawlq::analytic::MachineFigures;
using crawlq::analytic::threads_for_share;
using Mode = AdaptiveThreads::Mode;

// A machine whose clock the test moves and whose threads' figures grow at a share the test sets.
struct FakeMachine {
  double now = 5.0;
  double share = 1.0;  // of our threads' runnable time spent on a core
  bool has_figures = true;
  int samples = 0;
  CoreTime total;
  // The machine's own figures, where a case gives them.
  bool has_machine_figures = false;
  std::optional<int> other_tasks = 0;  // runnable now
  double idle_cores = 0;               // idle on average as time passes
  std::optional<double> idle_seconds = 0;
  int idle_reads = 0;

  // `seconds` pass with our runnable threads `busy` cores' worth of work.
  void pass(double seconds, double busy = 2.0) {
    now += seconds;
    total.running += seconds * busy * share;
    total.waiting += seconds * busy * (1 - share);
    if (idle_seconds) *idle_seconds += seconds * idle_cores;
  }
  AdaptiveThreads threads(int requested, Mode mode, int cores, HeldCores* held = nullptr) {
    MachineFigures machine;
    if (has_machine_figures)
      machine = {.other_runnable_tasks = [this] { return other_tasks; },
                 .idle_seconds =
                     [this] {
                       ++idle_reads;
                       return idle_seconds;
                     }};
    return AdaptiveThreads(
        requested, mode, cores, [this] { return now; },
        [this]() -> std::optional<CoreTime> {
          ++samples;
          if (!has_figures) return std::nullopt;
          return total;
        },
        held, machine);
  }
};

// Two cores, another program running on one, and the machine's figures to tell.
FakeMachine one_core_held() {
  FakeMachine machine;
  machine.has_machine_figures = true;
  machine.other_tasks = 1;
  machine.share = 2.0 / 3;
  return machine;
}

}  // namespace

TEST_CASE("adaptive threads: the threads that fit the cores left by other programs",
          "[analytic][threads]") {
  // Quiet: every thread has a core.
  CHECK(threads_for_share(2, 2, 1.0) == 2);
  CHECK(threads_for_share(16, 16, 0.99) == 16);
  // Two threads and one other program on two cores: each of the three gets two thirds of a core.
  CHECK(threads_for_share(2, 2, 2.0 / 3) == 1);
  // One of our two threads shares a core, the other has one: three quarters, still one too many.
  CHECK(threads_for_share(2, 2, 0.75) == 1);
  // A program taking a third of a core: two threads still fit better than one.
  CHECK(threads_for_share(2, 2, 2.0 / 2.3) == 2);
  // Sixteen threads and two other programs on sixteen cores: fourteen cores are free.
  CHECK(threads_for_share(16, 16, 16.0 / 18) == 14);
  // Four threads asked for on two cores, nothing else running: two fit.
  CHECK(threads_for_share(4, 2, 0.5) == 2);
  // Two threads on sixteen cores: other programs on fifteen leave one, on fourteen two.
  CHECK(threads_for_share(2, 16, 16.0 / 17) == 1);
  CHECK(threads_for_share(2, 16, 1.0) == 2);
  // Never fewer than one, never more than asked for.
  CHECK(threads_for_share(3, 2, 0.0) == 1);
  CHECK(threads_for_share(3, 2, 0.01) == 1);
  CHECK(threads_for_share(3, 8, 1.5) == 3);
}

TEST_CASE("adaptive threads: fewer while the cores are held, every thread tried again later",
          "[analytic][threads]") {
  FakeMachine machine;
  AdaptiveThreads threads = machine.threads(2, Mode::kFollowCores, 2);
  // Intervals a little past 5 ms: their ends never fall on the limit in floating point.
  const double interval = 0.0051;
  // After a drop to one thread: one thread until about `wait` later, reading nothing meanwhile
  // (one thread cannot tell), then a try on every thread.
  const auto one_thread_for = [&](double wait) {
    INFO("wait " << wait);
    const int samples = machine.samples;
    machine.pass(wait - 0.005, 1.0);
    CHECK(threads.next_step() == 1);
    CHECK(machine.samples == samples);
    machine.pass(0.01, 1.0);
    CHECK(threads.next_step() == 2);
  };
  CHECK(threads.next_step() == 2);  // starts the first interval
  CHECK(machine.samples == 1);
  // Steps shorter than an interval read no figures.
  machine.pass(0.003);
  CHECK(threads.next_step() == 2);
  CHECK(machine.samples == 1);
  // A quiet interval: every thread stays.
  machine.pass(interval);
  CHECK(threads.next_step() == 2);
  CHECK(machine.samples == 2);
  // Another program takes a core: our two threads get two thirds of one each.
  machine.share = 2.0 / 3;
  machine.pass(interval);
  CHECK(threads.next_step() == 1);
  one_thread_for(0.1);
  // Still held at each try: the waits double up to 1.6 s.
  for (const double wait : {0.2, 0.4, 0.8, 1.6, 1.6}) {
    machine.pass(interval);
    CHECK(threads.next_step() == 1);
    one_thread_for(wait);
  }
  // The cores come free: every thread stays, and the next wait starts again at 0.1 s.
  machine.share = 1.0;
  machine.pass(interval);
  CHECK(threads.next_step() == 2);
  machine.share = 0.6;
  machine.pass(interval);
  CHECK(threads.next_step() == 1);
  one_thread_for(0.1);
  // A slow try (one step of 50 ms on every thread) waits 20 times its length: 1 s, not 0.2.
  machine.pass(0.05);
  CHECK(threads.next_step() == 1);
  one_thread_for(1.0);
}

TEST_CASE("adaptive threads: intervals that say nothing leave every thread",
          "[analytic][threads]") {
  SECTION("no scheduler figures") {
    FakeMachine machine;
    machine.has_figures = false;
    machine.share = 0.1;
    AdaptiveThreads threads = machine.threads(2, Mode::kFollowCores, 2);
    for (int step = 0; step < 10; ++step) {
      CHECK(threads.next_step() == 2);
      machine.pass(0.02);
    }
  }
  SECTION("a thread that ended took its figures with it") {
    FakeMachine machine;
    machine.share = 0.5;
    AdaptiveThreads threads = machine.threads(2, Mode::kFollowCores, 2);
    CHECK(threads.next_step() == 2);
    machine.pass(0.02);
    machine.total.running -= 1.0;  // far more than the interval added
    CHECK(threads.next_step() == 2);
    // The next interval counts from there, and tells.
    machine.pass(0.02);
    CHECK(threads.next_step() == 1);
  }
  SECTION("an interval with no time on a core") {
    FakeMachine machine;
    AdaptiveThreads threads = machine.threads(2, Mode::kFollowCores, 2);
    CHECK(threads.next_step() == 2);
    machine.now += 0.02;
    CHECK(threads.next_step() == 2);
  }
}

TEST_CASE("adaptive threads: a later computation starts from the last verdict",
          "[analytic][threads]") {
  FakeMachine machine;
  HeldCores held;
  machine.share = 16.0 / 18;
  AdaptiveThreads first = machine.threads(16, Mode::kFollowCores, 16, &held);
  CHECK(first.next_step() == 16);
  machine.pass(0.0051, 16.0);
  CHECK(first.next_step() == 14);
  // The next computation, before the try: fourteen threads at once, without an interval of its
  // own; one asking for fewer gets those.
  machine.pass(0.05, 14.0);
  const int samples = machine.samples;
  AdaptiveThreads second = machine.threads(16, Mode::kFollowCores, 16, &held);
  CHECK(second.next_step() == 14);
  AdaptiveThreads small = machine.threads(4, Mode::kFollowCores, 16, &held);
  CHECK(small.next_step() == 4);
  CHECK(machine.samples == samples + 1);  // only the small one starts an interval
  // At the try the second goes back to every thread.
  machine.pass(0.06, 14.0);
  CHECK(second.next_step() == 16);
  // The cores came free: a verdict of free cores clears the hold for the next computation.
  machine.share = 1.0;
  machine.pass(0.0051, 16.0);
  CHECK(second.next_step() == 16);
  AdaptiveThreads third = machine.threads(16, Mode::kFollowCores, 16, &held);
  CHECK(third.next_step() == 16);
}

TEST_CASE("adaptive threads: computations in quick succession read the figures once an interval",
          "[analytic][threads]") {
  // Ten computations of two 1 ms steps each, one after the other: 20 ms in all.
  const auto samples_of = [](bool shared) {
    FakeMachine machine;
    HeldCores held;
    for (int computation = 0; computation < 10; ++computation) {
      AdaptiveThreads threads = machine.threads(2, Mode::kFollowCores, 2, shared ? &held : nullptr);
      for (int step = 0; step < 2; ++step) {
        CHECK(threads.next_step() == 2);
        machine.pass(0.001);
      }
    }
    return machine.samples;
  };
  CHECK(samples_of(false) == 10);  // each its own start
  const int shared = samples_of(true);
  CHECK(shared >= 3);
  CHECK(shared <= 6);
}

TEST_CASE("adaptive threads: one thread, and the fixed and alternating modes",
          "[analytic][threads]") {
  FakeMachine machine;
  machine.share = 0.3;
  AdaptiveThreads one = machine.threads(1, Mode::kFollowCores, 2);
  AdaptiveThreads fixed = machine.threads(3, Mode::kFixed, 2);
  AdaptiveThreads alternate = machine.threads(3, Mode::kAlternate, 2);
  std::vector<int> alternated;
  for (int step = 0; step < 6; ++step) {
    CHECK(one.next_step() == 1);
    CHECK(fixed.next_step() == 3);
    alternated.push_back(alternate.next_step());
    machine.pass(0.02);
  }
  CHECK(alternated == std::vector<int>{1, 3, 1, 3, 1, 3});
  CHECK(machine.samples == 0);
}

TEST_CASE("adaptive threads: this process's scheduler figures and cores", "[analytic][threads]") {
  CHECK(crawlq::analytic::cores_for_process() >= 1);
  const std::optional<CoreTime> before = crawlq::analytic::process_core_time();
  if (!before) {
    // A kernel without scheduler statistics: the computations then keep every thread.
    WARN("crawlq-skipped: no /proc/self/task/*/schedstat on this kernel");
    return;
  }
  volatile double sink = 0;
  for (int i = 0; i < 20'000'000; ++i) sink = sink + 1e-9 * i;
  const std::optional<CoreTime> after = crawlq::analytic::process_core_time();
  REQUIRE(after);
  CHECK(after->running > before->running);
  CHECK(after->waiting >= before->waiting);
}

TEST_CASE("adaptive threads: the first computation starts on the cores the runnable tasks leave",
          "[analytic][threads]") {
  FakeMachine machine;
  machine.has_machine_figures = true;
  HeldCores held;
  SECTION("one other task on two cores: one thread, and no interval on both") {
    machine.other_tasks = 1;
    AdaptiveThreads threads = machine.threads(2, Mode::kFollowCores, 2, &held);
    CHECK(threads.next_step() == 1);
    // Our threads' figures read only beside the cores' idle time, for the window of the next try.
    CHECK(machine.samples == machine.idle_reads);
    // A later computation of the process goes on from that verdict.
    machine.pass(0.01, 1.0);
    AdaptiveThreads later = machine.threads(2, Mode::kFollowCores, 2, &held);
    CHECK(later.next_step() == 1);
  }
  SECTION("three others on sixteen cores: thirteen threads") {
    machine.other_tasks = 3;
    AdaptiveThreads threads = machine.threads(16, Mode::kFollowCores, 16, &held);
    CHECK(threads.next_step() == 13);
  }
  SECTION("nothing else runnable, or no count: every thread, and the first interval") {
    machine.other_tasks = GENERATE(std::optional<int>(0), std::optional<int>());
    AdaptiveThreads threads = machine.threads(2, Mode::kFollowCores, 2, &held);
    CHECK(threads.next_step() == 2);
    CHECK(machine.samples == 1);
  }
  SECTION("only the process's first computation counts them") {
    AdaptiveThreads first = machine.threads(2, Mode::kFollowCores, 2, &held);
    CHECK(first.next_step() == 2);
    machine.other_tasks = 1;
    AdaptiveThreads second = machine.threads(2, Mode::kFollowCores, 2, &held);
    CHECK(second.next_step() == 2);
  }
}

TEST_CASE("adaptive threads: held by the schedulers' figures only while other tasks run",
          "[analytic][threads]") {
  // Our own threads' waits to wake look like cores held: with no other task runnable, every thread
  // stays.
  FakeMachine machine;
  machine.has_machine_figures = true;
  machine.share = 0.6;
  AdaptiveThreads threads = machine.threads(2, Mode::kFollowCores, 2);
  CHECK(threads.next_step() == 2);
  machine.other_tasks = 0;
  machine.pass(0.0051);
  CHECK(threads.next_step() == 2);
  machine.other_tasks = 1;
  machine.pass(0.0051);
  CHECK(threads.next_step() == 1);
}

TEST_CASE("adaptive threads: a try waits for an idle core", "[analytic][threads]") {
  FakeMachine machine = one_core_held();
  HeldCores held;
  AdaptiveThreads threads = machine.threads(2, Mode::kFollowCores, 2, &held);
  // The threads of the next step once `seconds` passed with `busy` cores of ours at work.
  const auto after = [&](double seconds, double busy) {
    machine.pass(seconds, busy);
    return threads.next_step();
  };
  CHECK(threads.next_step() == 1);
  // The other program keeps its core: no try, however long (the waits without these figures would
  // have tried after 0.1, 0.3, 0.7, 1.5 and 3.1 s); the idle time is read once in 40 ms.
  const int intervals = machine.samples - machine.idle_reads;
  for (int step = 0; step < 500; ++step) {
    CHECK(after(0.01, 1.0) == 1);
  }
  CHECK(machine.samples - machine.idle_reads == intervals);
  // Every 4 or 5 steps of 10 ms, as the sums of steps fall either side of 40 ms.
  CHECK(machine.idle_reads >= 95);
  CHECK(machine.idle_reads <= 130);
  // A later computation goes on with one thread: the cores stayed held.
  AdaptiveThreads next = machine.threads(2, Mode::kFollowCores, 2, &held);
  CHECK(next.next_step() == 1);
  // A core comes free: the first reading 40 ms on finds it, and both threads go back.
  machine.idle_cores = 1;
  machine.other_tasks = 0;
  machine.share = 1;
  CHECK(after(0.03, 1.0) == 1);
  CHECK(after(0.011, 1.0) == 2);
  CHECK(after(0.0051, 2.0) == 2);
}

TEST_CASE("adaptive threads: an idle core that a try finds held again", "[analytic][threads]") {
  // A container whose machine has cores idle that its share does not give: the readings say idle,
  // the try finds the cores held. The tries then wait as without the readings.
  FakeMachine machine = one_core_held();
  machine.idle_cores = 1;
  AdaptiveThreads threads = machine.threads(2, Mode::kFollowCores, 2);
  // The threads of the next step once `seconds` passed with `busy` cores of ours at work.
  const auto after = [&](double seconds, double busy) {
    machine.pass(seconds, busy);
    return threads.next_step();
  };
  CHECK(threads.next_step() == 1);
  CHECK(after(0.041, 1.0) == 2);   // led by the reading
  CHECK(after(0.0051, 2.0) == 1);  // held again: misled
  // Now 0.1 s, as without the readings, before the next try.
  CHECK(after(0.09, 1.0) == 1);
  CHECK(after(0.02, 1.0) == 2);
  CHECK(after(0.0051, 2.0) == 1);
  // Still held: 0.2 s now.
  CHECK(after(0.15, 1.0) == 1);
  CHECK(after(0.06, 1.0) == 2);
  // And the readings still hold a try back while no core is idle.
  CHECK(after(0.0051, 2.0) == 1);
  machine.idle_cores = 0;
  for (int step = 0; step < 100; ++step) {
    CHECK(after(0.01, 1.0) == 1);
  }
}

TEST_CASE("adaptive threads: a computation after a verdict ran out", "[analytic][threads]") {
  FakeMachine machine;
  machine.has_machine_figures = true;
  machine.other_tasks = 1;
  HeldCores held;
  AdaptiveThreads first = machine.threads(2, Mode::kFollowCores, 2, &held);
  CHECK(first.next_step() == 1);
  // One thread's work between computations (a chain built), long past the verdict.
  machine.pass(0.5, 1.0);
  const int intervals = machine.samples - machine.idle_reads;
  SECTION("the cores stayed busy: one thread, no interval on both") {
    AdaptiveThreads next = machine.threads(2, Mode::kFollowCores, 2, &held);
    CHECK(next.next_step() == 1);
    CHECK(machine.samples - machine.idle_reads == intervals);
  }
  SECTION("a core was idle meanwhile: every thread, and an interval to tell") {
    machine.idle_seconds = *machine.idle_seconds + 0.4;
    AdaptiveThreads next = machine.threads(2, Mode::kFollowCores, 2, &held);
    CHECK(next.next_step() == 2);
    CHECK(machine.samples - machine.idle_reads == intervals + 1);
  }
  SECTION("our own other threads used the other core: every thread") {
    machine.total.running += 0.4;  // an OpenMP thread that spins, or a computation now ended
    AdaptiveThreads next = machine.threads(2, Mode::kFollowCores, 2, &held);
    CHECK(next.next_step() == 2);
  }
}

TEST_CASE("adaptive threads: a parallel region's threads", "[analytic][threads]") {
  // The suite keeps every step on the threads given (CRAWLQ_THREAD_ADAPTATION=off).
  CHECK(crawlq::analytic::threads_for_region(3) == 3);
  CHECK(crawlq::analytic::threads_for_region(1) == 1);
}
