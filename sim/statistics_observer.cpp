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
  CompensatedSum observed;
  for (const auto& level : time_at_level_) observed.add(level.sum);
  const double t = observed.sum > 0 ? observed.sum : 1.0;
  e.lambda = offered_ / t;
  e.pages_offered = offered_;
  // Pages are counted where they end; over a long window the ones still inside at its ends vanish.
  if (offered_ > 0) {
    e.p_loss = (offered_ - accepted_) / offered_;
    e.p_obsolete = expired_ / offered_;
    e.p_served = served_ / offered_;
  }
  for (std::size_t i = 0; i < time_at_level_.size(); ++i) {
    e.level_probabilities.push_back(time_at_level_[i].sum / t);
    e.mean_in_system += i * time_at_level_[i].sum / t;
    if (i > 0) e.mean_in_queue += (i - 1) * time_at_level_[i].sum / t;
  }
  for (std::size_t r = 0; r < time_with_robots_.size(); ++r) {
    e.mode_probabilities.push_back(time_with_robots_[r].sum / t);
    e.mean_active_robots += (r + 1) * time_with_robots_[r].sum / t;
  }
  e.p_starvation = e.level_probabilities[0];
  e.mean_sojourn_served = served_ > 0 ? served_sojourn_ / served_ : 0.0;
  e.mean_sojourn_obsolete = expired_ > 0 ? expired_sojourn_ / expired_ : 0.0;
  e.mean_sojourn =
      served_ + expired_ > 0 ? (served_sojourn_ + expired_sojourn_) / (served_ + expired_) : 0.0;
  const auto q = served_sojourns_.quantiles({0.5, 0.9, 0.99});
  e.served_median = q[0];
  e.served_p90 = q[1];
  e.served_p99 = q[2];
  e.served_sample = served_sojourns_.thinned(4096);
  e.cost = model::cost_criterion(costs_, e);
}

}  // namespace crawlq::sim
