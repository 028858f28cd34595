#include "analytic/core_figures.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <thread>

#include "model/thread_count.hpp"

namespace crawlq::analytic {

namespace {

std::optional<std::string> read_text(const char* path) {
  std::ifstream file(path);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string_view next_field(std::string_view& rest) {
  const std::size_t start = rest.find_first_not_of(" \t");
  if (start == std::string_view::npos) {
    rest = {};
    return {};
  }
  rest.remove_prefix(start);
  const std::size_t end = std::min(rest.find_first_of(" \t\n"), rest.size());
  const std::string_view field = rest.substr(0, end);
  rest.remove_prefix(end);
  return field;
}

template <typename Number>
std::optional<Number> parse_number(std::string_view text) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<int> other_runnable_tasks_now() {
  const std::optional<std::string> text = read_text("/proc/loadavg");
  if (!text) return std::nullopt;
  const std::optional<int> runnable = runnable_tasks_in_loadavg(*text);
  if (!runnable) return std::nullopt;
  return std::max(0, *runnable - 1);  // the calling thread
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

std::optional<int> runnable_tasks_in_loadavg(std::string_view loadavg) {
  for (int skipped = 0; skipped < 3; ++skipped) next_field(loadavg);
  const std::string_view tasks = next_field(loadavg);
  const std::size_t slash = tasks.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::optional<int> runnable = parse_number<int>(tasks.substr(0, slash));
  if (!runnable || *runnable < 0) return std::nullopt;
  return runnable;
}

namespace {
// A "cpuN" line's figures read at most: user, nice, system, idle, iowait, irq, softirq, steal.
constexpr int kMostFigures = 8;

// The sum of the given figures (0 the first after the name) over the "cpuN" lines of the cores in
// `allowed`, in seconds: a line without them counts nothing, and nothing where no line counted.
std::optional<double> seconds_in_stat(std::string_view stat, const cpu_set_t& allowed,
                                      double ticks_per_second, std::initializer_list<int> summed) {
  if (!(ticks_per_second > 0)) return std::nullopt;
  const int wanted = std::max(summed) + 1;  // at most the 8 figures of kMostFigures
  double ticks = 0;
  bool any = false;
  while (!stat.empty()) {
    const std::size_t end = std::min(stat.find('\n'), stat.size());
    std::string_view line = stat.substr(0, end);
    stat.remove_prefix(std::min(end + 1, stat.size()));
    const std::string_view name = next_field(line);
    if (name.size() <= 3 || name.substr(0, 3) != "cpu") continue;  // "cpu" alone is the total
    const std::optional<int> core = parse_number<int>(name.substr(3));
    if (!core || *core < 0 || *core >= CPU_SETSIZE || !CPU_ISSET(*core, &allowed)) continue;
    std::array<std::optional<double>, kMostFigures> figures;
    for (int i = 0; i < wanted; ++i) figures[i] = parse_number<double>(next_field(line));
    if (std::any_of(summed.begin(), summed.end(), [&](int i) { return !figures[i]; })) continue;
    for (const int i : summed) ticks += *figures[i];
    any = true;
  }
  if (!any) return std::nullopt;
  return ticks / ticks_per_second;
}

std::optional<double> allowed_cores_seconds(std::optional<double> (*in_stat)(std::string_view,
                                                                             const cpu_set_t&,
                                                                             double)) {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return std::nullopt;
  const std::optional<std::string> text = read_text("/proc/stat");
  if (!text) return std::nullopt;
  return in_stat(*text, allowed, static_cast<double>(sysconf(_SC_CLK_TCK)));
}
}  // namespace

std::optional<double> idle_seconds_in_stat(std::string_view stat, const cpu_set_t& allowed,
                                           double ticks_per_second) {
  return seconds_in_stat(stat, allowed, ticks_per_second, {3, 4});
}

std::optional<double> steal_seconds_in_stat(std::string_view stat, const cpu_set_t& allowed,
                                            double ticks_per_second) {
  return seconds_in_stat(stat, allowed, ticks_per_second, {7});
}

std::optional<int> other_runnable_tasks() {
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online < 1 || cores_for_process() < online) return std::nullopt;
  // A count is of one moment: tasks wake for a few microseconds (a quiet machine shows one more in
  // a read of /proc/loadavg out of a hundred), and our OpenMP threads spin a while after a parallel
  // region before they sleep (one was runnable at a solve's first step in 6 runs of 8). Where other
  // tasks are runnable, the count is taken again a millisecond later and the fewer kept. Our own
  // threads that work count: a computation beside this one in the lab holds cores as another
  // program's would.
  const std::optional<int> first = other_runnable_tasks_now();
  if (!first || *first == 0) return first;
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const std::optional<int> second = other_runnable_tasks_now();
  if (!second) return std::nullopt;
  return std::min(*first, *second);
}

std::optional<double> allowed_cores_idle_seconds() {
  return allowed_cores_seconds(idle_seconds_in_stat);
}

std::optional<double> allowed_cores_steal_seconds() {
  return allowed_cores_seconds(steal_seconds_in_stat);
}

}  // namespace crawlq::analytic
