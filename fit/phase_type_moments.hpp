#pragma once
// The raw moments of a phase-type law, which every fit checks its law against.
#include <vector>

#include "model/linear_algebra.hpp"

namespace crawlq::fit {

// E[X^n] = n! beta (-S)^-n e, n = 1..count.
std::vector<double> phase_type_moments(const model::RowVector& beta, const model::Matrix& s,
                                       int count);

}  // namespace crawlq::fit
