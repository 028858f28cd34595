// The kernel's figures that AdaptiveThreads reads, parsed from texts written as the kernel writes
// them (proc(5)), and read from this machine.
#include "analytic/core_figures.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <optional>
#include <thread>

namespace {

using crawlq::analytic::idle_seconds_in_stat;
using crawlq::analytic::runnable_tasks_in_loadavg;
using crawlq::analytic::steal_seconds_in_stat;

cpu_set_t cores(std::initializer_list<int> numbers) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (const int number : numbers) CPU_SET(number, &set);
  return set;
}

// Three cores; the "cpu" total, "intr" and other lines are not the cores'.
constexpr const char* kStat =
    "cpu  7751323 58351 576975 2229964 5751 0 1570 442542 0 0\n"
    "cpu0 3755817 23007 276708 1252587 2001 0 306 221803 0 0\n"
    "cpu1 3995505 35343 300267 977376 3750 0 1264 220738 0 0\n"
    "cpu2 100 0 0 250 50 0 0 0 0 0\n"
    "intr 123456 0 9 0 0\n"
    "ctxt 987654\n"
    "procs_running 3\n";

}  // namespace

TEST_CASE("core figures: the runnable tasks of /proc/loadavg", "[analytic][threads]") {
  CHECK(runnable_tasks_in_loadavg("0.40 1.21 1.79 3/108 26226\n") == 3);
  CHECK(runnable_tasks_in_loadavg("12.00 11.50 9.75 17/2048 4\n") == 17);
  CHECK_FALSE(runnable_tasks_in_loadavg("0.40 1.21 1.79 108 26226\n"));
  CHECK_FALSE(runnable_tasks_in_loadavg("0.40 1.21 1.79 x/108 26226\n"));
  CHECK_FALSE(runnable_tasks_in_loadavg("0.40 1.21"));
  CHECK_FALSE(runnable_tasks_in_loadavg(""));
}

TEST_CASE("core figures: the idle time of the cores a process may use", "[analytic][threads]") {
  // Idle and waiting for input, the 4th and 5th figures, in ticks of 1/100 s.
  CHECK(*idle_seconds_in_stat(kStat, cores({0}), 100) == Approx((1252587 + 2001) / 100.0));
  CHECK(*idle_seconds_in_stat(kStat, cores({0, 2}), 100) ==
        Approx((1252587 + 2001 + 250 + 50) / 100.0));
  CHECK(*idle_seconds_in_stat(kStat, cores({1}), 250) == Approx((977376 + 3750) / 250.0));
  // Cores with no line (offline, or past the machine's) add nothing.
  CHECK(*idle_seconds_in_stat(kStat, cores({2, 7}), 100) == Approx(3.0));
  CHECK_FALSE(idle_seconds_in_stat(kStat, cores({5}), 100));
  CHECK_FALSE(idle_seconds_in_stat(kStat, cores({0}), 0));
  CHECK_FALSE(idle_seconds_in_stat("cpu0 1 2 3\n", cores({0}), 100));
  CHECK_FALSE(idle_seconds_in_stat("", cores({0}), 100));
}

TEST_CASE("core figures: the time the host took from the cores a process may use",
          "[analytic][threads]") {
  // Steal, the 8th figure.
  CHECK(*steal_seconds_in_stat(kStat, cores({0}), 100) == Approx(221803 / 100.0));
  CHECK(*steal_seconds_in_stat(kStat, cores({1, 2}), 250) == Approx(220738 / 250.0));
  CHECK(*steal_seconds_in_stat(kStat, cores({2}), 100) == 0.0);
  // A kernel that does not count it writes fewer figures.
  CHECK_FALSE(steal_seconds_in_stat("cpu0 1 2 3 4 5 6 7\n", cores({0}), 100));
  CHECK_FALSE(steal_seconds_in_stat(kStat, cores({5}), 100));
  CHECK(*idle_seconds_in_stat("cpu0 1 2 3 4 5 6 7\n", cores({0}), 100) == Approx(0.09));
}

TEST_CASE("core figures: this machine's", "[analytic][threads]") {
  // Either missing (a kernel or container without them) or sensible; the values depend on the
  // machine's load, so only their bounds are checked.
  if (const std::optional<int> others = crawlq::analytic::other_runnable_tasks())
    CHECK(*others >= 0);
  const std::optional<double> before = crawlq::analytic::allowed_cores_idle_seconds();
  if (!before) {
    WARN("crawlq-skipped: no /proc/stat on this machine");
    return;
  }
  CHECK(*before >= 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  const std::optional<double> after = crawlq::analytic::allowed_cores_idle_seconds();
  REQUIRE(after);
  CHECK(*after >= *before);
}
