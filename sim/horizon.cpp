#include "sim/horizon.hpp"

#include <algorithm>
#include <cmath>
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

Pace measure_pace(const model::Model& model, const Policy& policy, std::uint64_t seed) {
  OfferedPages offered;
  const RunStatistics pilot =
      Simulator(model, policy)
          .run(seed, kPilotReplication, 0.0, std::numeric_limits<double>::infinity(), {&offered},
               RunLimits{.max_events = kPilotEvents});
  // A pilot can miss a regime its start is far from (a phase entered rarely but kept long): the
  // long-run rate of the robots' phase moves, in whichever mode is slowest, is a floor it cannot
  // miss.
  double long_run_moves = std::numeric_limits<double>::infinity();
  for (int r = 1; r <= model.modes(); ++r) {
    const model::Bmap& b = model.arrivals.mode(r);
    long_run_moves = std::min(long_run_moves, b.stationary().dot(-b.d(0).diagonal().transpose()));
  }
  return {offered.pages() / pilot.simulated,
          std::max(static_cast<double>(pilot.events) / pilot.simulated, long_run_moves)};
}

double default_horizon(const Pace& pace) {
  // Every BMAP brings pages, so a pilot this long sees some; if not, its events set the pace.
  return kDefaultPagesPerReplication /
         (pace.pages_per_time > 0 ? pace.pages_per_time : pace.events_per_time);
}

double replication_bytes(const model::Model& model) {
  // The estimate's fields, its served-sojourn sample (SampleQuantiles::thinned(4096)) and its
  // per-level and per-mode vectors.
  return sizeof(ReplicationEstimate) + 8.0 * (4096 + model.capacity + 1 + model.modes()) + 64;
}

void round_to_whole_periods(const model::Model& model, double& warmup, double& horizon) {
  if (!model.rhythm) return;
  const double period = model.rhythm->period;
  warmup = std::ceil(warmup / period) * period;
  horizon = std::max(1.0, std::ceil(horizon / period)) * period;
}

}  // namespace crawlq::sim
