#include "sim/measure_counts.hpp"

namespace crawlq::sim {

void put_measures(const MeasureCounts& c, const model::Costs& costs, model::MeasureSet<double>& e) {
  CompensatedSum observed;
  for (const double time : c.time_at_level) observed.add(time);
  const double t = observed.sum > 0 ? observed.sum : 1.0;
  e.lambda = c.offered / t;
  // Pages are counted where they end; over a long window the ones still inside at its ends vanish.
  if (c.offered > 0) {
    e.p_loss = (c.offered - c.accepted) / c.offered;
    e.p_obsolete = c.expired / c.offered;
    e.p_served = c.served / c.offered;
  }
  e.level_probabilities.clear();
  e.mode_probabilities.clear();
  for (std::size_t i = 0; i < c.time_at_level.size(); ++i) {
    e.level_probabilities.push_back(c.time_at_level[i] / t);
    e.mean_in_system += static_cast<double>(i) * c.time_at_level[i] / t;
    if (i > 0) e.mean_in_queue += static_cast<double>(i - 1) * c.time_at_level[i] / t;
  }
  for (std::size_t r = 0; r < c.time_with_robots.size(); ++r) {
    e.mode_probabilities.push_back(c.time_with_robots[r] / t);
    e.mean_active_robots += static_cast<double>(r + 1) * c.time_with_robots[r] / t;
  }
  e.p_starvation = e.level_probabilities.front();
  const double timed = c.served_timed + c.expired_timed;
  e.mean_sojourn_served = c.served_timed > 0 ? c.served_sojourn / c.served_timed : 0.0;
  e.mean_sojourn_obsolete = c.expired_timed > 0 ? c.expired_sojourn / c.expired_timed : 0.0;
  e.mean_sojourn = timed > 0 ? (c.served_sojourn + c.expired_sojourn) / timed : 0.0;
  e.cost = model::cost_criterion(costs, e);
}

}  // namespace crawlq::sim
