#include "model/policy.hpp"

#include <fmt/format.h>

#include "model/input_error.hpp"

namespace crawlq::model {

Policy Policy::from_thresholds(const std::vector<int>& thresholds, int modes, int capacity,
                               const std::string& key_path) {
  if (static_cast<int>(thresholds.size()) != modes - 1)
    throw InputError(key_path, fmt::format("{} values but {} modes need {}", thresholds.size(),
                                           modes, modes - 1));
  for (std::size_t r = 0; r < thresholds.size(); ++r) {
    const int j = thresholds[r];
    if (j < -1 || j > capacity)
      throw InputError(fmt::format("{}[{}]", key_path, r),
                       fmt::format("{} outside -1..{} (the capacity)", j, capacity));
    if (r > 0 && j < thresholds[r - 1])
      throw InputError(fmt::format("{}[{}]", key_path, r),
                       fmt::format("{} is below the previous threshold {}: thresholds must not "
                                   "decrease",
                                   j, thresholds[r - 1]));
  }
  std::vector<int> levels(capacity + 1);
  int r = 1;  // levels up to j_r have N-r+1 robots
  for (int level = 0; level <= capacity; ++level) {
    while (r < modes && level > thresholds[r - 1]) ++r;
    levels[level] = modes - r + 1;
  }
  return Policy(std::move(levels), modes);
}

Policy Policy::from_levels(const std::vector<int>& levels, int modes, int capacity,
                           const std::string& key_path) {
  if (static_cast<int>(levels.size()) != capacity + 1)
    throw InputError(key_path, fmt::format("{} values but capacity {} needs {} (levels 0..{})",
                                           levels.size(), capacity, capacity + 1, capacity));
  for (std::size_t i = 0; i < levels.size(); ++i)
    if (levels[i] < 1 || levels[i] > modes)
      throw InputError(fmt::format("{}[{}]", key_path, i),
                       fmt::format("{} robots outside 1..{}", levels[i], modes));
  return Policy(levels, modes);
}

Policy Policy::constant(int robots, int modes, int capacity) {
  return from_levels(std::vector<int>(capacity + 1, robots), modes, capacity);
}

std::optional<std::vector<int>> Policy::thresholds() const {
  for (std::size_t i = 1; i < robots_per_level_.size(); ++i)
    if (robots_per_level_[i] > robots_per_level_[i - 1]) return std::nullopt;
  // j_r is the last level with at least N-r+1 robots (or -1 when no level has that many).
  std::vector<int> j(modes_ - 1);
  for (int r = 1; r < modes_; ++r) {
    int last = -1;
    for (int level = 0; level <= capacity(); ++level)
      if (robots_per_level_[level] >= modes_ - r + 1) last = level;
    j[r - 1] = last;
  }
  return j;
}

}  // namespace crawlq::model
