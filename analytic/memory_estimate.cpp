#include "analytic/memory_estimate.hpp"

#include <unistd.h>

#include <cmath>

namespace crawlq::analytic {

MemoryEstimate estimate_memory(const model::Model& model) {
  const double w = model.arrivals.phases();
  const double m = model.service.phases();
  const double r = model.obsolescence ? model.obsolescence->phases() : 1;
  MemoryEstimate e;
  double level = w, top = w, below_top = 0, all_levels = w, factors = 0;
  for (int k = 1; k <= model.capacity; ++k) {
    below_top = level;
    level = k == 1 ? w * m : level * r;
    all_levels += level;
    // Each level keeps its factorised diagonal block and G_{k-1}.
    factors += level * level + level * below_top;
    top = level;
  }
  e.states = all_levels;
  // Level factors, two dense top-level blocks being formed, and sparse blocks/vectors (~40 doubles a
  // state for the generator, the tagged chain and its factorisation).
  e.bytes = 8.0 * (factors + 2.0 * top * top + 40.0 * all_levels);
  return e;
}

double physical_memory_bytes() {
  return static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
}

std::optional<int> largest_capacity_within(const model::Model& model, double bytes) {
  model::Model m = model;
  std::optional<int> largest;
  for (int k = 1; k <= 200; ++k) {
    m.capacity = k;
    if (estimate_memory(m).bytes > bytes) break;
    largest = k;
  }
  return largest;
}

}  // namespace crawlq::analytic
