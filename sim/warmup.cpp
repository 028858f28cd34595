#include "sim/warmup.hpp"

#include <limits>

#include "sim/simulator.hpp"

namespace crawlq::sim {

namespace {
constexpr int kSlices = 1000;
constexpr int kBatch = 5;
// Replications are numbered from 0; the pilot takes the last index so that it shares no stream.
constexpr std::uint64_t kPilotReplication = std::numeric_limits<std::uint64_t>::max();

// Time-average level over equal slices of [0, horizon).
class LevelSeries final : public Observer {
 public:
  explicit LevelSeries(double horizon) : slice_(horizon / kSlices), sums_(kSlices, 0.0) {}
  void on_interval(double from, double length, int level, int) override {
    const double to = from + length;
    while (from < to) {
      const int i = std::min(static_cast<int>(from / slice_), kSlices - 1);
      const double end = std::min(to, (i + 1) * slice_);
      sums_[i] += level * (end - from);
      if (end <= from) break;  // the last slice absorbs round-off at the horizon
      from = end;
    }
  }
  void on_batch(double, int, int) override {}
  void on_served(double, double) override {}
  void on_expired(double, double) override {}
  std::vector<double> averages() const {
    std::vector<double> a;
    for (double s : sums_) a.push_back(s / slice_);
    return a;
  }
  double slice() const { return slice_; }

 private:
  double slice_;
  std::vector<double> sums_;
};
}  // namespace

std::size_t mser5_truncation(const std::vector<double>& series) {
  std::vector<double> batches;
  for (std::size_t i = 0; i + kBatch <= series.size(); i += kBatch) {
    double sum = 0;
    for (int j = 0; j < kBatch; ++j) sum += series[i + j];
    batches.push_back(sum / kBatch);
  }
  const std::size_t n = batches.size();
  std::size_t best = 0;
  double best_value = std::numeric_limits<double>::infinity();
  for (std::size_t d = 0; d <= n / 2 && d < n; ++d) {
    double mean = 0;
    for (std::size_t i = d; i < n; ++i) mean += batches[i];
    mean /= static_cast<double>(n - d);
    double squares = 0;
    for (std::size_t i = d; i < n; ++i) squares += (batches[i] - mean) * (batches[i] - mean);
    const double value = squares / (static_cast<double>(n - d) * static_cast<double>(n - d));
    if (value < best_value) {
      best_value = value;
      best = d;
    }
  }
  return best * kBatch;
}

Mser5Pilot mser5_pilot(const model::Model& model, const Policy& policy, std::uint64_t seed,
                       double horizon) {
  const Simulator simulator(model, policy);
  Mser5Pilot found;
  for (const double share : {kPilotShare, 1.0}) {
    found.pilot = share * horizon;
    LevelSeries series(found.pilot);
    simulator.run(seed, kPilotReplication, 0.0, found.pilot, {&series});
    found.warmup = static_cast<double>(mser5_truncation(series.averages())) * series.slice();
    if (found.warmup < kLongTransient * found.pilot) break;
  }
  return found;
}

double mser5_warmup(const model::Model& model, const Policy& policy, std::uint64_t seed,
                    double horizon) {
  return mser5_pilot(model, policy, seed, horizon).warmup;
}

}  // namespace crawlq::sim
