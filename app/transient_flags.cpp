#include "app/transient_flags.hpp"

#include <fmt/format.h>

#include <cmath>

#include "api/solve_request.hpp"
#include "app/command_support.hpp"

namespace crawlq::app {

void add_transient_flags(CLI::App* command, TransientFlags& flags, const std::string& from_help) {
  command->add_option("--times", flags.times,
                      "t1,t2,...: the distribution at these times from the start (increasing, "
                      "time units), with the rates then and the pages counted since");
  command->add_option("--until", flags.until, "T: report --points times evenly over (0, T]");
  command->add_option("--points", flags.points, "n: how many times --until reports (default 50)");
  command->add_option("--from", flags.from, from_help)->capture_default_str();
  command
      ->add_option("--outage", flags.outage,
                   "D: the indexer serves nothing during [0, D), then resumes (times count from "
                   "the start of the outage)")
      ->capture_default_str();
}

std::vector<double> transient_times(const TransientFlags& o) {
  if (!o.times.empty() && o.until)
    throw UsageError("--times and --until: give the times as a list or as --until T --points n");
  if (!o.times.empty()) return parse_numbers(o.times, "--times");
  if (!o.until) {
    if (o.points > 0) throw UsageError("--points: give --until T too (n times evenly over (0, T])");
    return {};
  }
  if (!(*o.until > 0) || !std::isfinite(*o.until))
    throw UsageError(fmt::format("--until {}: give a time above 0", *o.until));
  const int n = o.points > 0 ? o.points : 50;
  if (static_cast<std::size_t>(n) > api::kMostTimes)
    throw UsageError(fmt::format("--points {}: give at most {}", n, api::kMostTimes));
  std::vector<double> times;
  for (int i = 1; i <= n; ++i) times.push_back(*o.until * i / n);
  return times;
}

}  // namespace crawlq::app
