#include "sim/statistics_observer.hpp"

#include <utility>

#include "sim/piece_observer.hpp"

namespace crawlq::sim {

StatisticsObserver::StatisticsObserver(int capacity, int modes, model::Costs costs)
    : time_at_level_(capacity + 1), time_with_robots_(modes), costs_(std::move(costs)) {}

Estimators standard_estimators(const model::Model& model) {
  Estimators set;
  set.push_back(std::make_unique<StatisticsObserver>(model.capacity, model.modes(), model.costs));
  if (model.rhythm)
    set.push_back(
        std::make_unique<PieceObserver>(*model.rhythm, model.capacity, model.modes(), model.costs));
  return set;
}

void StatisticsObserver::write(ReplicationEstimate& e) const {
  MeasureCounts counts{.time_at_level = {},
                       .time_with_robots = {},
                       .offered = offered_,
                       .accepted = accepted_,
                       .served = served_,
                       .expired = expired_,
                       .served_timed = served_,
                       .served_sojourn = served_sojourn_,
                       .expired_timed = expired_,
                       .expired_sojourn = expired_sojourn_};
  for (const CompensatedSum& level : time_at_level_) counts.time_at_level.push_back(level.sum);
  for (const CompensatedSum& robots : time_with_robots_)
    counts.time_with_robots.push_back(robots.sum);
  put_measures(counts, costs_, e);
  e.pages_offered = offered_;
  const auto q = served_sojourns_.quantiles({0.5, 0.9, 0.99});
  e.served_median = q[0];
  e.served_p90 = q[1];
  e.served_p99 = q[2];
  e.served_sample = served_sojourns_.thinned(4096);
}

}  // namespace crawlq::sim
