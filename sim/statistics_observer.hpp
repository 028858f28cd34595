#pragma once
// Collects one replication's estimates of the measures of `solve`: rates and probabilities as
// ratios of counts, time averages of the level and the robots, sojourn means by fate.
#include <vector>

#include "model/model.hpp"
#include "sim/estimator.hpp"
#include "sim/measure_counts.hpp"
#include "sim/sample_quantiles.hpp"

namespace crawlq::sim {

class StatisticsObserver final : public Estimator {
 public:
  StatisticsObserver(int capacity, int modes, model::Costs costs);
  // Defined here so that the event loop, compiled for this final class, inlines them.
  void on_interval(double, double length, int level, int robots) override {
    time_at_level_[level].add(length);
    time_with_robots_[robots - 1].add(length);
  }
  void on_batch(double, int batch, int accepted) override {
    offered_ += batch;
    accepted_ += accepted;
  }
  void on_served(double, double sojourn) override {
    ++served_;
    served_sojourn_ += sojourn;
    served_sojourns_.add(sojourn);
  }
  void on_expired(double, double sojourn) override {
    ++expired_;
    expired_sojourn_ += sojourn;
  }

  void write(ReplicationEstimate& estimate) const override;

 private:
  std::vector<CompensatedSum> time_at_level_, time_with_robots_;
  double offered_ = 0, accepted_ = 0, served_ = 0, expired_ = 0;
  double served_sojourn_ = 0, expired_sojourn_ = 0;
  SampleQuantiles served_sojourns_;
  model::Costs costs_;
};

}  // namespace crawlq::sim
