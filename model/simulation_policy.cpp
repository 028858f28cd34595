#include "model/simulation_policy.hpp"

#include <fmt/format.h>

#include "model/input_error.hpp"

namespace crawlq::model {

HysteresisPolicy make_hysteresis(int high, int low, int switch_off, int switch_on, int modes,
                                 int capacity, const std::string& key_path) {
  for (const auto& [name, robots] : {std::pair{"high", high}, std::pair{"low", low}})
    if (robots < 1 || robots > modes)
      throw InputError(fmt::format("{}.{}", key_path, name),
                       fmt::format("{} robots outside 1..{}", robots, modes));
  if (switch_off < 1 || switch_off > capacity)
    throw InputError(key_path + ".switch_off",
                     fmt::format("{} outside 1..{} (the capacity)", switch_off, capacity));
  if (switch_on < 0 || switch_on >= switch_off)
    throw InputError(
        key_path + ".switch_on",
        fmt::format("{}: must lie in 0..{} (below switch_off)", switch_on, switch_off - 1));
  return {high, low, switch_off, switch_on};
}

namespace {

// A (K+1)-row table of robots with `columns` entries a row, each in 1..N; `columns_are` says why
// there are that many ("the arrival process has {} phases").
void check_robot_table(const std::vector<std::vector<int>>& table, int modes, int capacity,
                       int columns, const char* columns_are, const std::string& key_path) {
  if (static_cast<int>(table.size()) != capacity + 1)
    throw InputError(key_path, fmt::format("{} rows but capacity {} needs {} (levels 0..{})",
                                           table.size(), capacity, capacity + 1, capacity));
  for (std::size_t level = 0; level < table.size(); ++level) {
    if (static_cast<int>(table[level].size()) != columns)
      throw InputError(fmt::format("{}[{}]", key_path, level),
                       fmt::format("{} values but {}", table[level].size(),
                                   fmt::format(fmt::runtime(columns_are), columns)));
    for (std::size_t column = 0; column < table[level].size(); ++column)
      if (table[level][column] < 1 || table[level][column] > modes)
        throw InputError(fmt::format("{}[{}][{}]", key_path, level, column),
                         fmt::format("{} robots outside 1..{}", table[level][column], modes));
  }
}

}  // namespace

long long chain_states(int capacity, int arrival_phases, int service_phases, int clock_phases) {
  constexpr long long kMost = 1LL << 40;
  long long waiting = 0, clocks = 1;  // 1 + R + ... + R^(K-1), grown one level at a time
  for (int level = 1; level <= capacity; ++level) {
    waiting += clocks;
    if (waiting > kMost) return 0;
    clocks *= clock_phases;
    if (clocks > kMost) clocks = kMost + 1;
  }
  const long long states = arrival_phases * (1 + service_phases * waiting);
  return states > kMost ? 0 : states;
}

std::size_t TablePolicy::index(int level, int arrival_phase, int service_phase,
                               const std::vector<int>& clocks) const {
  if (level == 0) return static_cast<std::size_t>(arrival_phase);
  std::size_t offset = static_cast<std::size_t>(arrival_phases), clock_count = 1;
  for (int i = 1; i < level; ++i) {
    offset += static_cast<std::size_t>(arrival_phases) * service_phases * clock_count;
    clock_count *= static_cast<std::size_t>(clock_phases);
  }
  std::size_t within = static_cast<std::size_t>(arrival_phase) * service_phases + service_phase;
  for (const int c : clocks) within = within * clock_phases + c;
  return offset + within;
}

TablePolicy make_table(std::vector<int> robots, int capacity, int arrival_phases,
                       int service_phases, int clock_phases, int modes, std::string source,
                       const std::string& key_path) {
  // A table written inline is its own source: its key is said once.
  const std::string from = source == key_path ? "" : source + ": ";
  const long long states = chain_states(capacity, arrival_phases, service_phases, clock_phases);
  if (static_cast<long long>(robots.size()) != states)
    throw InputError(
        key_path,
        fmt::format("{}{} robots values but the chain has {} states (one for each line of "
                    "`solve --export`)",
                    from, robots.size(), states));
  for (std::size_t x = 0; x < robots.size(); ++x)
    if (robots[x] < 1 || robots[x] > modes)
      throw InputError(
          key_path, fmt::format("{}state {}: {} robots outside 1..{}", from, x, robots[x], modes));
  return {std::move(robots), std::move(source), capacity,
          arrival_phases,    service_phases,    clock_phases};
}

MemoryPolicy as_memory(const HysteresisPolicy& h, int modes, int capacity) {
  MemoryPolicy memory;
  for (int level = 0; level <= capacity; ++level) {
    std::vector<int> row;
    for (int mode = 1; mode <= modes; ++mode) {
      if (mode == h.high)
        row.push_back(level >= h.switch_off ? h.low : h.high);
      else if (mode == h.low)
        row.push_back(level <= h.switch_on ? h.high : h.low);
      else
        row.push_back(level < h.switch_off ? h.high : h.low);  // as hysteresis's first decision
    }
    memory.next.push_back(std::move(row));
  }
  return memory;
}

MemoryPolicy make_memory(std::vector<std::vector<int>> next, int modes, int capacity,
                         const std::string& key_path) {
  check_robot_table(next, modes, capacity, modes,
                    "there are {} modes (one column for each mode in force)", key_path);
  return {std::move(next)};
}

PhaseAwarePolicy make_phase_aware(std::vector<std::vector<int>> robots, int modes, int capacity,
                                  int phases, const std::string& key_path) {
  check_robot_table(robots, modes, capacity, phases, "the arrival process has {} phases", key_path);
  return {std::move(robots)};
}

}  // namespace crawlq::model
