#pragma once
// How much memory an exact solve needs, so that a chain too large for the machine is refused
// before anything is allocated (and never crashes it).
#include <optional>

#include "analytic/stationary/solve_method.hpp"
#include "analytic/stationary/solver_memory.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

// For `method` (auto: the method `auto` would pick for this model), from its registration
// (solver_registry.hpp).
MemoryEstimate estimate_memory(const model::Model& model, Method method = Method::kAuto);
// The largest capacity whose estimate fits in `bytes` (other parameters as in `model`), or nothing
// when even K = 1 does not.
std::optional<int> largest_capacity_within(const model::Model& model, double bytes,
                                           Method method = Method::kAuto);

}  // namespace crawlq::analytic
