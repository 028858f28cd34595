#pragma once
// What each exact solver needs in memory for a model, and what this machine may give: the figures
// the solver registry lists beside each solver and memory_estimate.hpp weighs.
#include "model/model.hpp"

namespace crawlq::analytic {

struct MemoryEstimate {
  double states = 0;  // exact count, as a double: R^K overflows integers long before it matters
  double bytes = 0;   // peak of a block-recursion solve plus the tagged-page chain
};

// The estimates are for the chain of `model.policy` (a level map when absent): a policy with memory
// multiplies the arrival phases by the modes.
double environment_phases(const model::Model& model);

// Each solver's own need (registered beside it).
MemoryEstimate block_recursion_memory(const model::Model& model);
MemoryEstimate iterative_memory(const model::Model& model);
MemoryEstimate sparse_lu_memory(const model::Model& model);
// Optimal control over full-state policies (markov_control.hpp): the N constant generators stored
// and policy iteration's vectors. Measured: 0.85 GB at 262,142 states with N = 4 (the paper's
// example at K = 16), about 600 bytes a state for each mode and 1,000 more.
MemoryEstimate markov_control_memory(const model::Model& model);
// The per-rate sensitivities (validation/rate_sensitivity.hpp) beside the iterative solve: the
// generator assembled and a dozen adjoint vectors. Measured: 1.8 KB a state at K = 16 of the
// paper's example (262,142 states, 0.48 GB in all); 2.4 KB leaves a margin.
MemoryEstimate adjoint_memory(const model::Model& model);
// The memory this process may have, in bytes: the machine's, or less under a cgroup's memory.max
// or an address-space limit (ulimit -v).
double physical_memory_bytes();
// What an exact solve may take of it: four fifths, leaving the rest to everything else.
double available_memory_bytes();

}  // namespace crawlq::analytic
