#pragma once
// The policy forms beyond level maps (model/control_policy.hpp holds them all): a mode chosen by
// the arrival phase, or by the mode in force (memory, hysteresis being one case).
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

// Memory: when the level changes to i with mode m in force, the controller switches to mode
// next[i][m-1] (hysteresis is one case). Between level changes the mode stays, so the chain needs
// the mode in force as a state variable.
struct MemoryPolicy {
  std::vector<std::vector<int>> next;  // (K+1) x N, entries in 1..N
  bool operator==(const MemoryPolicy&) const = default;
};

// Full state: robots for every state of the chain xi_t, in the order of `solve --export` (level,
// then arrival phase, service phase, and the waiting pages' clock phases from the head of the
// queue; a model whose pages never expire counts one clock phase).
struct TablePolicy {
  std::vector<int> robots;
  std::string source;  // the file it was read from, shown in messages and JSON
  // The chain it numbers: K, W, M and R (1 when pages never expire).
  int capacity = 0, arrival_phases = 0, service_phases = 0, clock_phases = 0;
  bool operator==(const TablePolicy&) const = default;
  // The place of a state in the order of `solve --export`: level, then arrival phase, service
  // phase (none at level 0), the waiting pages' clock phases from the head.
  std::size_t index(int level, int arrival_phase, int service_phase,
                    const std::vector<int>& clocks) const;
};

// The number of states of xi_t: W (1 + M (1 + R + ... + R^(K-1))); 0 beyond 2^40 (too many to
// list).
long long chain_states(int capacity, int arrival_phases, int service_phases, int clock_phases);

// The hysteresis policy as a memory table: the same decisions at every level change. (Hysteresis
// decides after every event, but deciding again at the same level changes nothing.)
MemoryPolicy as_memory(const HysteresisPolicy& hysteresis, int modes, int capacity);

// Throw InputError naming `key_path` when a rule is broken (robots in 1..N, 0 <= on < off <= K;
// a (K+1) x W table; a (K+1) x N table).
HysteresisPolicy make_hysteresis(int high, int low, int switch_off, int switch_on, int modes,
                                 int capacity, const std::string& key_path);
PhaseAwarePolicy make_phase_aware(std::vector<std::vector<int>> robots, int modes, int capacity,
                                  int phases, const std::string& key_path);
MemoryPolicy make_memory(std::vector<std::vector<int>> next, int modes, int capacity,
                         const std::string& key_path);
// One robots value for each state of the chain of K, W, M, R, each in 1..N.
TablePolicy make_table(std::vector<int> robots, int capacity, int arrival_phases,
                       int service_phases, int clock_phases, int modes, std::string source,
                       const std::string& key_path);

}  // namespace crawlq::model
