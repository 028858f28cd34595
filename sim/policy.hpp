#pragma once
// Control policies behind one small interface (OMNeT++'s strategies): how many robots are active,
// given what the controller sees.
#include <memory>
#include <vector>

#include "model/policy.hpp"

namespace crawlq::sim {

struct SystemView {
  int level = 0;          // pages in the system, the one in service included
  int arrival_phase = 0;
  int robots = 0;         // active now (before this decision)
  double time = 0;
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual int robots(const SystemView& view) const = 0;
};

// Any robots-per-level map: the paper's threshold policies and everything else that looks only at
// the level.
class LevelMapPolicy final : public Policy {
 public:
  explicit LevelMapPolicy(const model::Policy& policy) : levels_(policy.levels()) {}
  int robots(const SystemView& view) const override { return levels_[view.level]; }

 private:
  std::vector<int> levels_;
};

}  // namespace crawlq::sim
