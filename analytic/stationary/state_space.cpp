#include "analytic/stationary/state_space.hpp"

#include <stdexcept>

namespace crawlq::analytic {

StateSpace::StateSpace(int capacity, int arrival_phases, int service_phases, int clock_phases)
    : capacity_(capacity),
      arrival_phases_(arrival_phases),
      service_phases_(service_phases),
      clock_phases_(clock_phases) {
  level_offsets_.push_back(0);
  Eigen::Index size = arrival_phases;
  for (int level = 0; level <= capacity; ++level) {
    if (level == 1) size *= service_phases;
    if (level >= 2) size *= clock_phases;  // one more waiting page
    level_sizes_.push_back(size);
    level_offsets_.push_back(level_offsets_.back() + size);
    // Far beyond any memory; stop before the integers overflow.
    if (level_offsets_.back() > kMaxStates)
      throw std::length_error("the chain has more than 2^40 states: too large to enumerate");
  }
}

StateSpace::StateSpace(const model::Model& model, int environment_phases)
    : StateSpace(model.capacity,
                 environment_phases > 0 ? environment_phases : model.arrivals.phases(),
                 model.service.phases(), model.obsolescence ? model.obsolescence->phases() : 1) {}

StateSpace::State StateSpace::state(Eigen::Index index) const {
  if (index < 0 || index >= size()) throw std::out_of_range("state index outside the state space");
  State s;
  while (level_offsets_[s.level + 1] <= index) ++s.level;
  Eigen::Index rest = index - level_offsets_[s.level];
  s.clock_phases.assign(s.level > 1 ? s.level - 1 : 0, 0);
  for (int k = static_cast<int>(s.clock_phases.size()) - 1; k >= 0; --k) {
    s.clock_phases[k] = static_cast<int>(rest % clock_phases_);
    rest /= clock_phases_;
  }
  if (s.level >= 1) {
    s.service_phase = static_cast<int>(rest % service_phases_);
    rest /= service_phases_;
  }
  s.arrival_phase = static_cast<int>(rest);
  return s;
}

Eigen::Index StateSpace::index(const State& s) const {
  Eigen::Index rest = s.arrival_phase;
  if (s.level >= 1) rest = rest * service_phases_ + s.service_phase;
  for (int phase : s.clock_phases) rest = rest * clock_phases_ + phase;
  return level_offsets_.at(s.level) + rest;
}

}  // namespace crawlq::analytic
