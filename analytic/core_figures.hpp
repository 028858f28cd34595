#pragma once
// What the kernel tells of the cores, for AdaptiveThreads: our own threads' time on a core and kept
// off one (/proc/self/task/*/schedstat), the tasks runnable on the whole machine now
// (/proc/loadavg) and the time the cores we may use spent idle (/proc/stat). Our threads' figures
// tell that other programs hold the cores our threads wait for; only the machine's figures tell
// that a core we are not using is idle.
#include <sched.h>

#include <optional>
#include <string_view>

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

// The tasks runnable on the machine now, the calling thread included: the numerator of
// /proc/loadavg's fourth field ("2/108"). Nothing where the text has no such field.
std::optional<int> runnable_tasks_in_loadavg(std::string_view loadavg);

// Seconds the cores in `allowed` have spent idle or waiting for input since boot, from /proc/stat's
// "cpuN" lines (their 4th and 5th figures, in ticks of `ticks_per_second`). Nothing where no
// allowed core has a line.
std::optional<double> idle_seconds_in_stat(std::string_view stat, const cpu_set_t& allowed,
                                           double ticks_per_second);
// The time the host took from the same cores ("steal", their 8th figure): on a virtual machine, a
// run slowed while it ran.
std::optional<double> steal_seconds_in_stat(std::string_view stat, const cpu_set_t& allowed,
                                            double ticks_per_second);

// The same for this machine and process. The runnable tasks other than the calling thread, and
// only where the process may run on every core the machine has: the count is the machine's, and
// would wrongly hold a process kept to a few of its cores.
std::optional<int> other_runnable_tasks();
std::optional<double> allowed_cores_idle_seconds();
std::optional<double> allowed_cores_steal_seconds();

}  // namespace crawlq::analytic
