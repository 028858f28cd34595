#pragma once
// The rules a scenario's numbers must obey, each throwing InputError with the key path and value.
#include <string>

#include "model/linear_algebra.hpp"

namespace crawlq::model {

// Row sums of a generator may differ from zero by this much, relative to the row's largest entry:
// files print rates to a few digits, but a generator must still conserve probability.
inline constexpr double kRowSumTolerance = 1e-9;
inline constexpr double kProbabilitySumTolerance = 1e-9;

void check_probability_vector(const RowVector& p, const std::string& key);
// Non-negative off the diagonal, rows summing to <= 0, and absorption reachable from every phase.
void check_subgenerator(const Matrix& t, const std::string& key);
void check_nonnegative_entries(const Matrix& m, const std::string& key);
void check_offdiagonal_nonnegative(const Matrix& m, const std::string& key);
// Rows of `generator` sum to zero; `key` names the matrices whose sum it is.
void check_conservative(const Matrix& generator, const std::string& key);

}  // namespace crawlq::model
