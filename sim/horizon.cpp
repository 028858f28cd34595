#include "sim/horizon.hpp"

#include <algorithm>
#include <limits>

#include "sim/observer.hpp"
#include "sim/simulator.hpp"
#include "sim/statistics_observer.hpp"

namespace crawlq::sim {

namespace {

constexpr std::uint64_t kPilotEvents = 200'000;
// The MSER-5 pilot takes the last replication index; this one the one before.
constexpr std::uint64_t kPilotReplication = std::numeric_limits<std::uint64_t>::max() - 1;

class OfferedPages final : public Observer {
 public:
  void on_interval(double, double, int, int) override {}
  void on_batch(double, int batch, int) override { pages_ += batch; }
  void on_served(double, double) override {}
  void on_expired(double, double) override {}
  double pages() const { return pages_; }

 private:
  double pages_ = 0;
};

}  // namespace

double default_horizon(const model::Model& model, const Policy& policy, std::uint64_t seed) {
  OfferedPages offered;
  const RunStatistics pilot = Simulator(model, policy).run(seed, kPilotReplication, 0.0,
                                                           std::numeric_limits<double>::infinity(), {&offered},
                                                           RunLimits{.max_events = kPilotEvents});
  // Every BMAP brings pages, so a pilot this long sees some; if not, its events set the pace.
  const double per_unit_time = offered.pages() > 0 ? offered.pages() / pilot.simulated
                                                   : static_cast<double>(pilot.events) / pilot.simulated;
  return kDefaultPagesPerReplication / per_unit_time;
}

double slowest_event_rate(const model::Model& model) {
  double slowest = std::numeric_limits<double>::infinity();
  for (int r = 1; r <= model.modes(); ++r) {
    const model::Matrix& d0 = model.arrivals.mode(r).d(0);
    for (Eigen::Index phase = 0; phase < d0.rows(); ++phase) slowest = std::min(slowest, -d0(phase, phase));
  }
  return slowest;
}

double replication_bytes(const model::Model& model) {
  // The estimate's fields, its served-sojourn sample (SampleQuantiles::thinned(4096)) and its
  // per-level and per-mode vectors.
  return sizeof(ReplicationEstimate) + 8.0 * (4096 + model.capacity + 1 + model.modes()) + 64;
}

}  // namespace crawlq::sim
