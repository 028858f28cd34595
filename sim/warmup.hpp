#pragma once
// The warm-up by MSER-5 (White 1997; Franklin and White 2008): on a pilot run, the time-average
// level over equal slices is grouped in batches of 5, and the truncation d minimising sum_{i>=d}
// (x_i - mean_d)^2 / (n - d)^2 over the first half of the batches is where the run stops
// remembering its empty start.
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "sim/policy.hpp"

namespace crawlq::sim {

// The MSER-5 truncation, as a number of leading values of `series` to drop.
std::size_t mser5_truncation(const std::vector<double>& series);

// Simulates a pilot of `horizon` time units from an empty system on its own streams (a replication
// index no estimate uses) and returns the MSER-5 warm-up time.
double mser5_warmup(const model::Model& model, const Policy& policy, std::uint64_t seed,
                    double horizon);

}  // namespace crawlq::sim
