#pragma once
// Under a rhythm, one replication's measures piece by piece: everything that happens while the
// clock is in piece i of its period, over every period the replication observes. The definitions
// are the exact engine's (analytic/transient/periodic_regime.hpp): the pages lost, gone stale or
// served during the piece over the pages offered during it; time averages over the piece; the
// sojourn means and the fates of the pages offered during it. Absolute time 0 is a period's start.
#include <cstddef>
#include <vector>

#include "model/model.hpp"
#include "model/rhythm.hpp"
#include "sim/estimator.hpp"
#include "sim/measure_counts.hpp"

namespace crawlq::sim {

class PieceObserver final : public Estimator {
 public:
  PieceObserver(const model::Rhythm& rhythm, int capacity, int modes, model::Costs costs);

  void on_interval(double from, double length, int level, int robots) override;
  void on_batch(double time, int batch, int accepted) override;
  void on_served(double time, double sojourn) override;
  void on_expired(double time, double sojourn) override;

  void write(ReplicationEstimate& estimate) const override;

 private:
  std::size_t piece_of(double time) const;

  model::Rhythm rhythm_;
  // served and expired count the pages ending during the piece; the timed ones, with their
  // sojourns, the pages offered during it, by how they ended.
  std::vector<MeasureCounts> pieces_;
  model::Costs costs_;
};

}  // namespace crawlq::sim
