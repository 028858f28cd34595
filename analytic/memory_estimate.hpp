#pragma once
// How much memory an exact solve needs, so that a chain too large for the machine is refused
// before anything is allocated (and never crashes it).
#include <cstdint>
#include <optional>

#include "analytic/method_choice.hpp"
#include "analytic/stationary_solver.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

struct MemoryEstimate {
  double states = 0;  // exact count, as a double: R^K overflows integers long before it matters
  double bytes = 0;   // peak of a block-recursion solve plus the tagged-page chain
};

// The estimates are for the chain of `model.policy` (a level map when absent): a policy with memory
// multiplies the arrival phases by the modes.
double environment_phases(const model::Model& model);

// For `method` (auto: the method `auto` would pick for this model), from its registration
// (solver_registry.hpp).
MemoryEstimate estimate_memory(const model::Model& model, Method method = Method::kAuto);
// Each solver's own need (registered beside it).
MemoryEstimate block_recursion_memory(const model::Model& model);
MemoryEstimate iterative_memory(const model::Model& model);
MemoryEstimate sparse_lu_memory(const model::Model& model);
// Optimal control over full-state policies (markov_control.hpp): the N constant generators stored
// and policy iteration's vectors. Measured: 0.85 GB at 262,142 states with N = 4 (the paper's
// example at K = 16), about 600 bytes a state for each mode and 1,000 more.
MemoryEstimate markov_control_memory(const model::Model& model);
// The memory this process may have, in bytes: the machine's, or less under a cgroup's memory.max
// or an address-space limit (ulimit -v).
double physical_memory_bytes();
// What an exact solve may take of it: four fifths, leaving the rest to everything else.
double available_memory_bytes();
// The largest capacity whose estimate fits in `bytes` (other parameters as in `model`), or nothing
// when even K = 1 does not.
std::optional<int> largest_capacity_within(const model::Model& model, double bytes,
                                           Method method = Method::kAuto);

}  // namespace crawlq::analytic
