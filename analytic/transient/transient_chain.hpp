#pragma once
// The chain of section 3 under a policy as transient analysis needs it: y = x Q without storing Q
// (the matrix-free operator; a full-state table's sparse Q), the uniformisation rate, the measures
// of any vector (linear in it, so that a vector integrated over time gives expected counts), and
// the distributions of the named starts.
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <memory>
#include <vector>

#include "analytic/sojourn/tagged_page_chain.hpp"
#include "analytic/stationary/controlled_arrivals.hpp"
#include "analytic/stationary/full_state_chain.hpp"
#include "analytic/stationary/generator_operator.hpp"
#include "analytic/stationary/measures.hpp"
#include "analytic/stationary/state_space.hpp"
#include "analytic/transient/transient_sums.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

class TransientChain {
 public:
  TransientChain(const model::Model& model, const model::ControlPolicy& policy);
  ~TransientChain();

  const StateSpace& space() const;
  Eigen::Index size() const { return space().size(); }
  // y = x Q (x a distribution as a column); the same bits for any thread count.
  void apply(const Eigen::VectorXd& x, Eigen::VectorXd& y, int threads) const;
  // The diagonal of Q: minus each state's total outflow.
  const Eigen::VectorXd& diagonal() const;
  // The largest total outflow of a state: the uniformisation rate q, so that I + Q / q is a
  // stochastic matrix.
  double uniform_rate() const { return uniform_rate_; }
  // Every measure of `p` but the sojourn means and the cost, with no normalisation: p may be any
  // nonnegative vector (its lambda then counts pages offered, and so on).
  Measures measures(const Eigen::VectorXd& p) const;
  // The same as sums linear in p (the rates times lambda rather than ratios), on `threads`
  // threads (the same bits for any count).
  TransientSums sums(const Eigen::VectorXd& p, int threads = 1) const;

  // Where the pages `p` offers start their journey in `tagged` (the chain of this model's service
  // and clocks), per page offered, lost pages weighing nothing: TaggedPageChain::
  // arrival_distribution under this chain's arrivals.
  Eigen::RowVectorXd arrival_start(const TaggedPageChain& tagged, const Eigen::VectorXd& p) const;

  // No pages; the arrival phase in the long-run law of the phase process of the mode in force at
  // level 0 (with memory: the mode the empty system keeps in the long run).
  Eigen::VectorXd empty_start() const;
  // K pages: the one in service in its initial phase law beta, each waiting page's clock in gamma,
  // the arrival phase as for the empty start but at level K (with memory: the mode the controller
  // picks on reaching K from the empty system's).
  Eigen::VectorXd full_start() const;

 private:
  // The arrival phase's law at `level` when the rest of each state there is distributed as
  // `rest_weight` (by state index); over the environment's phases.
  Eigen::VectorXd environment_law(int level, const Eigen::VectorXd& rest_weight) const;
  // beta and gamma's product over the states of `level` (1 at level 0), by state index.
  Eigen::VectorXd page_law(int level) const;

  std::unique_ptr<const model::Model> model_;
  // The level-based forms (level maps, phase-aware tables, memory and hysteresis).
  std::unique_ptr<const ControlledArrivals> arrivals_;
  std::unique_ptr<const GeneratorOperator> operator_;
  std::unique_ptr<const TransientSumsKernel> kernel_;  // the sums of the operator's chain
  // A full-state table.
  std::unique_ptr<const FullStateChain> full_;
  std::vector<int> robots_;
  Eigen::SparseMatrix<double, Eigen::RowMajor> generator_;
  Eigen::VectorXd diagonal_;
  double uniform_rate_ = 0;
};

}  // namespace crawlq::analytic
