#pragma once
// What a stretch of a sample path counted (a whole replication, or one piece of the day over it),
// and the measures of `solve` made from it: rates and probabilities as ratios of counts, time
// averages of the level and the robots, sojourn means by fate, and the cost (2) of those.
#include <vector>

#include "model/measure_list.hpp"
#include "model/model.hpp"

namespace crawlq::sim {

// Compensated: a million intervals of 10^6 time units would otherwise bury the 10^-6 ones (a level
// visited 10^-12 of the time) in the round-off of their sum.
struct CompensatedSum {
  double sum = 0, error = 0;
  void add(double x) {
    const double y = x - error;
    const double t = sum + y;
    error = (t - sum) - y;
    sum = t;
  }
};

struct MeasureCounts {
  std::vector<double> time_at_level, time_with_robots;  // time spent, by level and by robots - 1
  double offered = 0, accepted = 0;                     // pages of the batches that came
  double served = 0, expired = 0;                       // pages that ended in the stretch
  // The pages whose sojourns are averaged, with the sums of those sojourns.
  double served_timed = 0, served_sojourn = 0, expired_timed = 0, expired_sojourn = 0;
};

// Every measure of the list, from the counts (`estimate`'s lists are filled, not appended to).
void put_measures(const MeasureCounts& counts, const model::Costs& costs,
                  model::MeasureSet<double>& estimate);

}  // namespace crawlq::sim
