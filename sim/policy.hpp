#pragma once
// Control policies behind one small interface (OMNeT++'s strategies): how many robots are active,
// given what the controller sees.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "model/model.hpp"
#include "model/policy.hpp"

namespace crawlq::sim {

struct SystemView {
  int level = 0;  // pages in the system, the one in service included
  int arrival_phase = 0;
  int robots = 0;  // active now (before this decision); 0 before the first
  double time = 0;
  int previous_level = -1;  // before the event just handled; -1 before the first decision
  // Seen only by policies that need them (Policy::needs_phases): the server's phase (-1 at level 0)
  // and the waiting pages' clock phases, head first.
  int service_phase = -1;
  const std::vector<int>* clocks = nullptr;
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual int robots(const SystemView& view) const = 0;
  // True when the policy reads the server's and the clocks' phases: the simulator then runs every
  // phase as a state (phase_level_run.hpp) instead of drawing whole service times and clocks.
  virtual bool needs_phases() const { return false; }
  // True when the policy reads the robots' phase, which a replayed log (model/arrival_trace.hpp)
  // does not have.
  virtual bool reads_arrival_phase() const { return needs_phases(); }
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

// Hysteresis: `high` robots until the level rises to switch_off, `low` until it falls to
// switch_on; the robots now active carry the history.
class HysteresisPolicy final : public Policy {
 public:
  explicit HysteresisPolicy(const model::HysteresisPolicy& spec) : spec_(spec) {}
  int robots(const SystemView& view) const override {
    if (view.robots == spec_.high) return view.level >= spec_.switch_off ? spec_.low : spec_.high;
    if (view.robots == spec_.low) return view.level <= spec_.switch_on ? spec_.high : spec_.low;
    return view.level < spec_.switch_off ? spec_.high : spec_.low;  // the first decision
  }

 private:
  model::HysteresisPolicy spec_;
};

// Memory: at a change of level, the next mode by the new level and the mode in force; between
// changes the mode stays.
class MemoryPolicy final : public Policy {
 public:
  explicit MemoryPolicy(const model::MemoryPolicy& spec) : next_(spec.next) {}
  int robots(const SystemView& view) const override {
    if (view.robots == 0) return next_[view.level][0];  // the first decision: as from one robot
    if (view.level == view.previous_level) return view.robots;
    return next_[view.level][view.robots - 1];
  }

 private:
  std::vector<std::vector<int>> next_;
};

// Full state: robots by the state's place in the table (model::TablePolicy::index).
class TablePolicy final : public Policy {
 public:
  explicit TablePolicy(model::TablePolicy spec) : spec_(std::move(spec)) {}
  int robots(const SystemView& view) const override {
    static const std::vector<int> none;
    return spec_.robots[spec_.index(view.level, view.arrival_phase, std::max(view.service_phase, 0),
                                    view.clocks ? *view.clocks : none)];
  }
  bool needs_phases() const override { return true; }

 private:
  model::TablePolicy spec_;
};

// Robots by level and arrival phase.
class PhaseAwarePolicy final : public Policy {
 public:
  explicit PhaseAwarePolicy(const model::PhaseAwarePolicy& spec) : robots_(spec.robots) {}
  int robots(const SystemView& view) const override {
    return robots_[view.level][view.arrival_phase];
  }
  bool reads_arrival_phase() const override { return true; }

 private:
  std::vector<std::vector<int>> robots_;
};

// A policy per piece of a rhythm: piece i of the period runs policies[i % size], chosen by the
// decision's time (the simulator asks again at every piece's start).
class PiecewisePolicy final : public Policy {
 public:
  PiecewisePolicy(std::vector<std::unique_ptr<Policy>> policies, const model::Rhythm& rhythm)
      : policies_(std::move(policies)),
        piece_length_(rhythm.piece_length()),
        pieces_(rhythm.pieces()) {}
  int robots(const SystemView& view) const override {
    // A decision at a piece's start belongs to the piece it starts, whatever the last bit says.
    const auto k = static_cast<std::size_t>(std::floor(view.time / piece_length_ + 1e-9));
    return policies_[(k % pieces_) % policies_.size()]->robots(view);
  }
  bool needs_phases() const override;
  bool reads_arrival_phase() const override;

 private:
  std::vector<std::unique_ptr<Policy>> policies_;
  double piece_length_;
  std::size_t pieces_;
};

// The simulator runs every form of control policy.
std::unique_ptr<Policy> make_policy(const model::ControlPolicy& policy);
// What the model's pieces run: `policy` in every one, or the model's by-piece policies when it has
// them.
std::unique_ptr<Policy> make_policy(const model::Model& model, const model::ControlPolicy& policy);

}  // namespace crawlq::sim
