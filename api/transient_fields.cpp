#include "api/transient_fields.hpp"

#include <fmt/format.h>

#include <cmath>

namespace crawlq::api {

std::string transient_problem(Caller caller, const std::vector<double>& times, double outage,
                              bool start_or_outage_given) {
  if (times.size() > kMostTimes)
    return fmt::format("{}: {} times: give at most {}", field_name(caller, Field::kTimes),
                       times.size(), kMostTimes);
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (!(times[i] >= 0) || !std::isfinite(times[i]))
      return fmt::format("{}: {}: give times of 0 or more", field_name(caller, Field::kTimes),
                         times[i]);
    if (i > 0 && times[i] < times[i - 1])
      return fmt::format("{}: {} after {}: give the times in increasing order",
                         field_name(caller, Field::kTimes), times[i], times[i - 1]);
  }
  if (!(outage >= 0) || !std::isfinite(outage))
    return fmt::format("{}: {}: give a duration of 0 or more (time units)",
                       field_name(caller, Field::kOutage), outage);
  if (times.empty() && start_or_outage_given)
    return fmt::format("{}: give the times to report (the start and the outage are of a transient)",
                       field_name(caller, Field::kTimes));
  return "";
}

}  // namespace crawlq::api
