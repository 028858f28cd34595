#pragma once
// The tagged page's subgenerator T (section 5) applied from its small factors (S, S_0, beta, Gamma,
// Gamma_0), never stored: stored, T holds about 30 entries a state, 0.75 GB at K = 20, while
// applied from the factors its memory is the vectors. The layout is TaggedPageChain's: the M
// in-service states, then for j = 0..K-2 pages ahead a block of M R^(j+1) states (service phase
// slowest, the clocks of the pages ahead from the head, its own clock last).
#include <Eigen/Core>
#include <vector>

#include "model/model.hpp"

namespace crawlq::analytic {

class TaggedPageOperator {
 public:
  explicit TaggedPageOperator(const model::Model& model);

  Eigen::Index size() const { return offsets_.back(); }
  int service_phases() const { return m_; }
  int clock_phases() const { return r_; }
  int max_pages_ahead() const { return static_cast<int>(offsets_.size()) - 3; }
  // Where the block with `ahead` pages ahead starts; ahead = -1 is the in-service block.
  Eigen::Index offset(int ahead) const { return offsets_[static_cast<std::size_t>(ahead + 1)]; }
  Eigen::Index block_size(int ahead) const { return offset(ahead + 1) - offset(ahead); }
  // The diagonal of T: minus each state's total outflow (to another state or absorbed).
  const Eigen::VectorXd& diagonal() const { return diagonal_; }
  const Eigen::MatrixXd& service() const { return service_; }  // S
  const Eigen::MatrixXd& clock() const { return clock_; }  // Gamma (zero when pages never expire)

  // y = x T, where x is zero beyond the block with `most_ahead` pages ahead (y is written up to
  // there). The service phases of a block are independent pieces, so `threads` never change a sum.
  void left_multiply(const double* x, double* y, int most_ahead, int threads = 1) const;
  // r += T_(ahead, ahead-1) x_below: the rates out of the block with `ahead` pages ahead into the
  // one it moves to (the head served, or a page ahead expiring; with none ahead, into service).
  void add_leaving(int ahead, const double* x_below, double* r) const;

 private:
  void in_service_row(const double* x, double* y, bool with_block_above) const;
  // y over [begin, end) of one service phase's part of a block (whole cycles of its own clock):
  // every term but the clocks ahead. The first write to those entries.
  void own_terms(int ahead, int service, Eigen::Index begin, Eigen::Index end, const double* x,
                 double* y, bool with_block_above) const;
  // The clocks ahead of one service phase's part of a block: their moves, and their expiries into
  // the block below (ahead >= 1).
  void clock_terms(int ahead, int service, const double* x, double* y) const;
  // Both, for a block shared among the threads of the enclosing parallel region.
  void shared_block(int ahead, const double* x, double* y, bool with_block_above) const;

  int m_, r_;
  Eigen::MatrixXd service_, clock_;
  Eigen::VectorXd service_exit_, service_start_, clock_exit_;
  std::vector<Eigen::Index> offsets_;  // [ahead + 1]: in service, then ahead = 0..K-2, then the end
  Eigen::VectorXd diagonal_;
};

}  // namespace crawlq::analytic
