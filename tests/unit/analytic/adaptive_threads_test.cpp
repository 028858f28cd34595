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
using crawlq::analytic::threads_for_share;
using Mode = AdaptiveThreads::Mode;

// A machine whose clock the test moves and whose threads' figures grow at a share the test sets.
struct FakeMachine {
  double now = 5.0;
  double share = 1.0;  // of our threads' runnable time spent on a core
  bool has_figures = true;
  int samples = 0;
  CoreTime total;

  // `seconds` pass with our runnable threads `busy` cores' worth of work.
  void pass(double seconds, double busy = 2.0) {
    now += seconds;
    total.running += seconds * busy * share;
    total.waiting += seconds * busy * (1 - share);
  }
  AdaptiveThreads threads(int requested, Mode mode, int cores, HeldCores* held = nullptr) {
    return AdaptiveThreads(
        requested, mode, cores, [this] { return now; },
        [this]() -> std::optional<CoreTime> {
          ++samples;
          if (!has_figures) return std::nullopt;
          return total;
        },
        held);
  }
};

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
