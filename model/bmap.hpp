#pragma once
// A batch Markovian arrival process given by D_0, D_1, ..., D_kmax (section 2): D_0 holds phase
// changes without arrivals, D_k those that bring a batch of k pages; D(1) = sum D_k is a generator.
#include <string>
#include <vector>

#include "model/linear_algebra.hpp"

namespace crawlq::model {

// D_0 square and not empty, at least D_1 beside it, every D_k of D_0's size; InputError otherwise.
// Anything that reads the matrices together (a repair of D_0's diagonal, say) must call it first.
void check_bmap_shapes(const std::vector<Matrix>& d, const std::string& key_path);

// Minus every other rate of row `row` of D_0 and of each D_k: the diagonal that makes D(1)'s row
// sum to zero. One summation order for `repair-diagonal` and for the files crawlq writes, so that
// what it writes reads back unrepaired. The shapes must have passed check_bmap_shapes.
double d0_diagonal(const std::vector<Matrix>& d, Eigen::Index row);

class Bmap {
 public:
  // Checks every rule and throws InputError naming `key_path` (e.g. "arrivals.modes[1].D").
  // `written_sizes`: for a mode computed from a file's matrices, their row_term_sizes, so that the
  // rounding accepted in the file is judged alike here (check_conservative).
  explicit Bmap(std::vector<Matrix> d, const std::string& key_path = "D",
                const Vector& written_sizes = Vector());

  int phases() const { return static_cast<int>(d_.front().rows()); }
  int max_batch() const { return static_cast<int>(d_.size()) - 1; }
  // D_k, the zero matrix beyond the largest batch.
  Matrix d(int k) const;
  const std::vector<Matrix>& matrices() const { return d_; }
  // D(1), the generator of the phase process.
  Matrix generator() const;
  // theta: theta D(1) = 0, theta e = 1.
  const RowVector& stationary() const { return theta_; }

  // lambda = theta sum k D_k e: pages per unit time.
  double fundamental_rate() const;
  // lambda_g = theta (-D_0) e: batches per unit time.
  double group_rate() const;
  // Variance and lag-1 correlation of the times between batches (section 2).
  double group_interval_variance() const;
  double group_interval_lag1_correlation() const;

 private:
  std::vector<Matrix> d_;
  RowVector theta_;
};

}  // namespace crawlq::model
