#include "analytic/stationary/memory_estimate.hpp"

#include "analytic/stationary/solver_registry.hpp"
#include "model/policy.hpp"

namespace crawlq::analytic {

MemoryEstimate estimate_memory(const model::Model& model, Method method) {
  return registration(method, model).memory(model);
}

std::optional<int> largest_capacity_within(const model::Model& model, double bytes, Method method) {
  // The need grows with K: double until it does not fit (or K reaches its cap), then bisect.
  model::Model m = model;
  const auto fits = [&](int k) {
    m.capacity = k;
    return estimate_memory(m, method).bytes <= bytes;
  };
  if (!fits(1)) return std::nullopt;
  int low = 1, high = 2;
  while (high <= model::kMostCapacity && fits(high)) {
    low = high;
    high = high > model::kMostCapacity / 2 ? model::kMostCapacity + 1 : 2 * high;
  }
  while (high - low > 1) {
    const int middle = low + (high - low) / 2;
    (fits(middle) ? low : high) = middle;
  }
  return low;
}

}  // namespace crawlq::analytic
