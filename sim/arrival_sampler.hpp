#pragma once
// The robots' phase process for every mode (section 2): in phase nu under r robots it stays an
// exponential time of rate -D_0^(r)(nu,nu), then moves to nu' bringing a batch of k pages with
// probability D_k^(r)(nu,nu') / -D_0^(r)(nu,nu) (k = 0: no pages).
#include <vector>

#include "model/arrival_modes.hpp"
#include "sim/random_streams.hpp"

namespace crawlq::sim {

struct ArrivalJump {
  int batch = 0;  // pages brought (0: a phase change only)
  int next_phase = 0;
};

class ArrivalSampler {
 public:
  explicit ArrivalSampler(const model::ArrivalModes& modes);

  int phases() const { return phases_; }
  double rate(int robots, int phase) const { return table(robots, phase).rate; }
  double mean_stay(int robots, int phase) const { return table(robots, phase).mean_stay; }
  ArrivalJump jump(int robots, int phase, RandomStream& random) const;
  // Start in the stationary phase of mode `robots`.
  int initial_phase(int robots, RandomStream& random) const;

 private:
  struct PhaseTable {
    double rate = 0;
    double mean_stay = 0;
    std::vector<double> cumulative;
    std::vector<ArrivalJump> outcomes;
  };
  const PhaseTable& table(int robots, int phase) const {
    return tables_[(robots - 1) * phases_ + phase];
  }
  int phases_;
  std::vector<PhaseTable> tables_;                          // [mode][phase]
  std::vector<std::vector<double>> stationary_cumulative_;  // [mode]
};

}  // namespace crawlq::sim
