#pragma once
// The controlled arrival process: which mode's BMAP (D_k^(r)) drives the arrivals in each state of
// the chain. The generator's blocks, its matrix-free operator, the measures and the tagged page's
// arrival law all read the matrices through here, so a policy form changes this one place.
//
// The chain's arrival component is its environment: the robots' arrival phase nu (W phases), and
// for a policy with memory the mode in force beside it (N W phases, mode-major: (r-1) W + nu). At
// each level the environment moves by one W'-phase BMAP whose rows come from the modes the policy
// runs there: a level map takes every row from one mode, a phase-aware policy each phase's row from
// its own mode, a memory policy mode r's rows in mode r's phases. A memory policy also switches the
// mode when the level changes: `on_entering(i)` maps each environment phase to the one the
// controller picks on arriving at level i.
#include <map>
#include <optional>
#include <vector>

#include "model/control_policy.hpp"
#include "model/linear_algebra.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

// D_0..D_kmax of the environment at one level (the rows need not form one mode's BMAP).
struct ArrivalRows {
  std::vector<model::Matrix> d;
  int phases() const { return static_cast<int>(d.front().rows()); }
  int max_batch() const { return static_cast<int>(d.size()) - 1; }
  // D_k, the zero matrix beyond the largest batch.
  model::Matrix d_k(int k) const;
};

class ControlledArrivals {
 public:
  // Every form of model::ControlPolicy (hysteresis as its memory table, model::as_memory) but the
  // full-state table, whose rows change inside a level (full_state_chain.hpp; std::logic_error).
  ControlledArrivals(const model::Model& model, const model::ControlPolicy& policy);

  int capacity() const { return static_cast<int>(level_rows_.size()) - 1; }
  // Of the environment: W, or N W with memory.
  int phases() const { return phases_; }
  bool remembers() const { return !entered_.empty(); }
  const ArrivalRows& at_level(int level) const { return rows_[level_rows_[level]]; }
  // The environment's jump on arriving at `level` from another level, as a 0/1 matrix with one 1 a
  // row (from entered_phase); nothing for a policy without memory.
  std::optional<model::Matrix> on_entering(int level) const;
  // The level's D_k grouped by how many pages of the batch get in (model.admission): index 0 holds
  // the batches lost whole (the environment still moves), index a those that add a pages, times
  // the switch on entering level + a.
  std::vector<model::Matrix> by_admitted(int level) const;
  // The environment phase the controller picks on entering `level` from `phase`.
  int entered_phase(int level, int phase) const {
    return entered_.empty()
               ? phase
               : entered_[static_cast<std::size_t>(level)][static_cast<std::size_t>(phase)];
  }
  // The environment phase of arrival phase `nu` with `robots` in force (they count only with
  // memory).
  int environment_phase(int robots, int nu) const {
    return remembers() ? (robots - 1) * arrival_phases_ + nu : nu;
  }
  // A state of the empty system the chain keeps returning to, where the direct and iterative
  // solvers pin p = 1: environment phase 0 without memory; with memory, a mode in force at level 0
  // in the long run (others may never be).
  int recurrent_empty_phase() const { return recurrent_empty_phase_; }
  // The robots at `level` when every phase runs the same number there (any policy without memory
  // whose row at that level is uniform), else nothing.
  std::optional<int> robots_at_level(int level) const {
    if (remembers() || robots_[static_cast<std::size_t>(level)].size() != 1) return std::nullopt;
    return robots_[static_cast<std::size_t>(level)].front();
  }
  // Robots active at `level` in environment phase `phase`.
  int robots(int level, int phase) const;
  // What the blocks of level l (its rows, and the switches of the levels its moves reach) depend
  // on: equal signatures give equal blocks, so that a level's factors can be shared between
  // policies.
  std::vector<int> signature(int level) const;

 private:
  void take_levels(const model::Model& model, const std::vector<std::vector<int>>& robots);
  void take_memory(const model::Model& model, const model::MemoryPolicy& memory);

  int arrival_phases_ = 0, phases_ = 0, recurrent_empty_phase_ = 0;
  model::Admission admission_;
  std::vector<ArrivalRows> rows_;
  std::vector<int> level_rows_;            // level -> index in rows_
  std::vector<std::vector<int>> robots_;   // by level, then phase (one entry: every phase)
  std::vector<std::vector<int>> next_;     // memory: by level, then mode in force
  std::vector<std::vector<int>> entered_;  // memory: by level entered, the phase each goes to
};

}  // namespace crawlq::analytic
