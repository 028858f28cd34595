#pragma once
// The rules a scenario's numbers must obey, each throwing InputError with the key path and value.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model/linear_algebra.hpp"

namespace crawlq::model {

// A sum that should come to 0 or 1 may miss it by this much relative to the size of the terms that
// were added: decimals that cancel on paper leave a binary remainder of a few ulps of the terms
// (-0.9 + 0.6 + 0.3 = -5.6e-17), while a wrong number misses by far more than this.
inline constexpr double kSumTolerance = 1e-9;

// Every nonzero rate lies between these (in magnitude).
inline constexpr double kSmallestRate = 1e-100;
inline constexpr double kLargestRate = 1e100;

// Terms added with the size of what was added kept beside the sum, so the sum can be judged
// against its terms rather than against itself (a one-phase generator's row sum is all there is
// to scale by).
class TermSum {
 public:
  void add(double term) {
    sum_ += term;
    magnitude_ += std::abs(term);
  }
  double value() const { return sum_; }
  // The sum is `target` up to the rounding of its terms.
  bool equals(double target) const { return std::abs(sum_ - target) <= slack(target); }
  bool exceeds(double target) const { return sum_ - target > slack(target); }
  bool falls_short(double target) const { return target - sum_ > slack(target); }
  // Judges the sum against terms it was computed from as well: a mode built from a file's rows
  // keeps their rounding while its own terms may cancel part of them.
  void judge_against(double size) { magnitude_ = std::max(magnitude_, size); }
  // The sum to the digits its terms carry, for messages: 9e-07, not 8.99999999970369e-07.
  std::string shown() const;

 private:
  double slack(double target) const {
    return kSumTolerance * std::max(magnitude_, std::abs(target));
  }
  double sum_ = 0.0;
  double magnitude_ = 0.0;
};

TermSum row_sum(const Matrix& m, Eigen::Index row);
// For each row, the size of its terms across d[0], d[1], ...: what its sum is judged against.
Vector row_term_sizes(const std::vector<Matrix>& d);

void check_probability_vector(const RowVector& p, const std::string& key);
// Non-negative off the diagonal, rows summing to <= 0, and absorption reachable from every phase.
void check_subgenerator(const Matrix& t, const std::string& key);
void check_nonnegative_entries(const Matrix& m, const std::string& key);
void check_offdiagonal_nonnegative(const Matrix& m, const std::string& key);
// Rows of the generator terms[0] + terms[1] + ... sum to zero; `key` names the matrices added.
// `written_sizes` (one a row, or empty): where the terms were computed from a file's matrices, the
// sizes of those rows' terms (row_term_sizes), which the rounding the file was accepted with is of.
void check_conservative(const std::vector<Matrix>& terms, const std::string& key,
                        const Vector& written_sizes = Vector());

}  // namespace crawlq::model
