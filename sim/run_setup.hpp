#pragma once
// How a run begins and what interrupts it, beyond an empty start under one policy: K pages at the
// start, the mode and arrival phase the exact engine starts in, the indexer paused for a stretch
// (an outage), and a moment at which the controller is asked again (a policy switched then).
#include <vector>

#include "model/control_policy.hpp"
#include "model/model.hpp"
#include "sim/page_buffer.hpp"
#include "sim/random_streams.hpp"

namespace crawlq::sim {

struct RunSetup {
  // Pages at time 0: 0, or K (one at the indexer with a fresh service, the others waiting on
  // fresh obsolescence clocks, as if they had just arrived).
  int level = 0;
  // The mode in force at the start; 0: the controller's first decision.
  int robots = 0;
  // The arrival phase's law at the start; empty: the stationary law of the start's mode.
  std::vector<double> arrival_law = {};
  // Absolute times: the indexer serves nothing during [pause_from, pause_to) (the page at the
  // indexer stays, its service frozen), and the controller is asked again at switch_at.
  double pause_from = kNever, pause_to = kNever;
  double switch_at = kNever;
};

// A fresh start at `level` (0 or K) as the exact engine defines it: the arrival phase in the
// stationary law of the phase process of the mode in force there (each phase's row from its own
// mode for a phase-aware policy), a policy with memory in the mode it keeps returning to when
// empty (entering `level` from there). Throws std::invalid_argument for a full start under a table
// that reads the phases: the mode then depends on the phases of every page, not on the level.
RunSetup fresh_start(const model::Model& model, const model::ControlPolicy& policy, int level);

// An index drawn from `law` (its entries sum to 1; round-off leaves the last).
int draw_from(const std::vector<double>& law, RandomStream& random);

}  // namespace crawlq::sim
