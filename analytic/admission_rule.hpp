#pragma once
// How many pages of a batch of k enter a system holding `level` of at most `capacity` pages.
#include "model/model.hpp"

namespace crawlq::analytic {

inline int accepted_pages(model::Admission admission, int level, int capacity, int batch) {
  const int free = capacity - level;
  if (admission == model::Admission::kRejectBatch) return batch <= free ? batch : 0;
  return batch < free ? batch : free;  // partial: the last pages of the batch are lost
}

}  // namespace crawlq::analytic
