#pragma once
// Section 7 of the paper regenerated: Tables 1 to 5 beside their printed values and Figures 1 to 4,
// plus a sample path. A printed number is a claim to check: a row is flagged when the computed
// value is more than one unit of the printed last digit away, the reason is stated, and the
// simulator (an engine independent of the exact one) says which of the two it supports.
#include "validation/reproduction.hpp"

namespace crawlq::validation {

Reproduction reproduce_paper(const ReproductionOptions& options);

}  // namespace crawlq::validation
