#pragma once
// The policy forms beyond level maps (model/control_policy.hpp holds them all): the exact chain of
// section 3 has no room for the history a hysteresis policy remembers, nor for a mode chosen by the
// arrival phase.
#include <string>
#include <vector>

namespace crawlq::model {

// `high` robots until the level rises to `switch_off`, then `low` robots until it falls to
// `switch_on` (< switch_off), then `high` again: at levels between, the mode depends on history.
struct HysteresisPolicy {
  int high = 0, low = 0;
  int switch_off = 0, switch_on = 0;
  bool operator==(const HysteresisPolicy&) const = default;
};

// Robots by level and by the robots' arrival phase: robots[level][phase].
struct PhaseAwarePolicy {
  std::vector<std::vector<int>> robots;
  bool operator==(const PhaseAwarePolicy&) const = default;
};

// Throw InputError naming `key_path` when a rule is broken (robots in 1..N, 0 <= on < off <= K;
// a (K+1) x W table).
HysteresisPolicy make_hysteresis(int high, int low, int switch_off, int switch_on, int modes, int capacity,
                                 const std::string& key_path);
PhaseAwarePolicy make_phase_aware(std::vector<std::vector<int>> robots, int modes, int capacity, int phases,
                                  const std::string& key_path);

}  // namespace crawlq::model
