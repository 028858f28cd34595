#pragma once
// How many pages of a batch of k enter a system holding `level` of at most `capacity` pages.
#include "model/model.hpp"  // Admission

namespace crawlq::model {

inline int accepted_pages(Admission admission, int level, int capacity, int batch) {
  const int free = capacity - level;
  if (admission == Admission::kRejectBatch) return batch <= free ? batch : 0;
  return batch < free ? batch : free;  // partial: the last pages of the batch are lost
}

}  // namespace crawlq::model
