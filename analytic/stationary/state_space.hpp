#pragma once
// The states of the Markov chain xi_t = {i, nu, m, r^(1), ..., r^(i-1)} of section 3, numbered
// level by level and lexicographically inside a level: arrival phase slowest, then service phase,
// then the clock phases of the waiting pages from the head of the queue to its tail.
#include <Eigen/Core>
#include <vector>

#include "model/model.hpp"

namespace crawlq::analytic {

class StateSpace {
 public:
  static constexpr Eigen::Index kMaxStates = Eigen::Index{1} << 40;
  // Throws std::length_error beyond kMaxStates (see memory_estimate.hpp to refuse much earlier).
  StateSpace(int capacity, int arrival_phases, int service_phases, int clock_phases);
  // Pages that never expire carry a clock with one phase and no exit. `environment_phases`: the
  // arrival component's size when a policy with memory adds the mode in force
  // (controlled_arrivals.hpp).
  explicit StateSpace(const model::Model& model, int environment_phases = 0);

  int capacity() const { return capacity_; }
  int arrival_phases() const { return arrival_phases_; }
  int service_phases() const { return service_phases_; }
  int clock_phases() const { return clock_phases_; }

  // W M^{a_i} R^{b_i}: level 0 has no server phase, level i has i-1 waiting pages.
  Eigen::Index level_size(int level) const { return level_sizes_.at(level); }
  Eigen::Index level_offset(int level) const { return level_offsets_.at(level); }
  Eigen::Index size() const { return level_offsets_.back(); }

  struct State {
    int level = 0;
    int arrival_phase = 0;          // of the environment (mode-major with memory)
    int service_phase = 0;          // meaningless at level 0
    std::vector<int> clock_phases;  // head of the queue first; size level-1 (0 at level 0)
    bool operator==(const State&) const = default;
  };
  State state(Eigen::Index index) const;
  Eigen::Index index(const State& state) const;

 private:
  int capacity_, arrival_phases_, service_phases_, clock_phases_;
  std::vector<Eigen::Index> level_sizes_, level_offsets_;
};

}  // namespace crawlq::analytic
