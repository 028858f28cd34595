#pragma once
// What a replication measures: observers that write their findings into its estimate. The
// replication driver runs the set it is given, so a statistic is added as an estimator (and a field
// of model/measure_list.hpp) without touching the driver or the event loop.
#include <functional>
#include <memory>
#include <vector>

#include "model/measure_list.hpp"
#include "model/model.hpp"
#include "sim/observer.hpp"

namespace crawlq::sim {

// One piece of a rhythm (sim/piece_observer.hpp): the measures, and the fates of the pages offered
// during the piece (with p_loss they sum to 1).
template <class T>
struct PieceEstimate : model::MeasureSet<T> {
  T p_served_by_arrival{}, p_obsolete_by_arrival{};
};

// Every measure of the list (model/measure_list.hpp) from one replication, and what the intervals
// of the served pages' sojourn are made from.
struct ReplicationEstimate : model::MeasureSet<double> {
  double pages_offered = 0;  // what the estimates rest on
  // Sojourn of served pages: median, 90% and 99% points.
  double served_median = 0, served_p90 = 0, served_p99 = 0;
  // A systematic subsample of the served pages' sojourns, for histograms with common bins.
  std::vector<double> served_sample;
  std::vector<PieceEstimate<double>> pieces;  // under a rhythm, one per piece; else empty
};

class Estimator : public Observer {
 public:
  // Called once the replication has ended, in the order of the set: a later estimator may read
  // (and refine) what an earlier one wrote.
  virtual void write(ReplicationEstimate& estimate) const = 0;
};

using Estimators = std::vector<std::unique_ptr<Estimator>>;
// Made afresh for each replication, so estimators keep their counts as plain members.
using EstimatorFactory = std::function<Estimators(const model::Model&)>;

// The statistics of every measure of `solve` (StatisticsObserver) and, under a rhythm, of each
// piece (PieceObserver).
Estimators standard_estimators(const model::Model& model);

}  // namespace crawlq::sim
