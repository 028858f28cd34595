#pragma once
// A control policy as the number of robots active at each level 0..K (a level counts the page in
// service). Threshold policies (section 2, non-strict inequalities) are one way to build it.
#include <optional>
#include <string>
#include <vector>

namespace crawlq::model {

class Policy {
 public:
  // Level i with j_{r-1}+1 <= i <= j_r has N-r+1 robots (j_0 = -1, j_N = K); -1 <= j_1 <= ... <= K.
  static Policy from_thresholds(const std::vector<int>& thresholds, int modes, int capacity,
                                const std::string& key_path = "policy.thresholds");
  // Any robots-per-level map, entries in 1..N.
  static Policy from_levels(const std::vector<int>& levels, int modes, int capacity,
                            const std::string& key_path = "policy.levels");
  // The same number of robots at every level.
  static Policy constant(int robots, int modes, int capacity);

  int robots(int level) const { return robots_per_level_.at(level); }
  const std::vector<int>& levels() const { return robots_per_level_; }
  int capacity() const { return static_cast<int>(robots_per_level_.size()) - 1; }
  int modes() const { return modes_; }
  // The thresholds j_1..j_{N-1} when robots never increase with the level, otherwise nothing.
  std::optional<std::vector<int>> thresholds() const;
  bool operator==(const Policy&) const = default;

 private:
  Policy(std::vector<int> levels, int modes)
      : robots_per_level_(std::move(levels)), modes_(modes) {}
  std::vector<int> robots_per_level_;
  int modes_;
};

}  // namespace crawlq::model
