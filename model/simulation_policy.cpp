#include "model/simulation_policy.hpp"

#include "model/control_policy.hpp"

#include <fmt/format.h>

#include "model/input_error.hpp"

namespace crawlq::model {

std::string policy_kind(const ControlPolicy& policy) {
  return std::visit(Overloaded{[](const Policy&) { return "levels"; },
                               [](const PhaseAwarePolicy&) { return "phase-aware"; },
                               [](const HysteresisPolicy&) { return "hysteresis"; }},
                    policy);
}

HysteresisPolicy make_hysteresis(int high, int low, int switch_off, int switch_on, int modes, int capacity,
                                 const std::string& key_path) {
  for (const auto& [name, robots] : {std::pair{"high", high}, std::pair{"low", low}})
    if (robots < 1 || robots > modes)
      throw InputError(fmt::format("{}.{}", key_path, name), fmt::format("{} robots outside 1..{}", robots, modes));
  if (switch_off < 1 || switch_off > capacity)
    throw InputError(key_path + ".switch_off", fmt::format("{} outside 1..{} (the capacity)", switch_off, capacity));
  if (switch_on < 0 || switch_on >= switch_off)
    throw InputError(key_path + ".switch_on",
                     fmt::format("{}: must lie in 0..{} (below switch_off)", switch_on, switch_off - 1));
  return {high, low, switch_off, switch_on};
}

PhaseAwarePolicy make_phase_aware(std::vector<std::vector<int>> robots, int modes, int capacity, int phases,
                                  const std::string& key_path) {
  if (static_cast<int>(robots.size()) != capacity + 1)
    throw InputError(key_path, fmt::format("{} rows but capacity {} needs {} (levels 0..{})", robots.size(),
                                           capacity, capacity + 1, capacity));
  for (std::size_t level = 0; level < robots.size(); ++level) {
    if (static_cast<int>(robots[level].size()) != phases)
      throw InputError(fmt::format("{}[{}]", key_path, level),
                       fmt::format("{} values but the arrival process has {} phases", robots[level].size(), phases));
    for (std::size_t phase = 0; phase < robots[level].size(); ++phase)
      if (robots[level][phase] < 1 || robots[level][phase] > modes)
        throw InputError(fmt::format("{}[{}][{}]", key_path, level, phase),
                         fmt::format("{} robots outside 1..{}", robots[level][phase], modes));
  }
  return {std::move(robots)};
}

}  // namespace crawlq::model
