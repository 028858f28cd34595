#pragma once
// Where a policy with memory stands when the system is empty: the mode the chain keeps returning to
// at level 0. Both engines start an empty system there, so their transients begin alike.
#include "model/model.hpp"
#include "model/simulation_policy.hpp"

namespace crawlq::model {

// The modes in force at level 0 that the chain keeps returning to. Every state reaches level 0 by
// departures alone, so each closed class of (level, mode) holds a level-0 node: (0, m) is recurrent
// when every (0, m') it reaches reaches it back. Several classes mean the long run depends on the
// start: refused by name.
int recurrent_empty_mode(const Model& model, const MemoryPolicy& memory);

}  // namespace crawlq::model
