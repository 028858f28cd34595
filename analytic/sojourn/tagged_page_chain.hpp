#pragma once
// The remaining journey of a tagged accepted page (section 5): an absorbing chain whose transient
// states are (pages ahead j, service phase, clocks of the j pages ahead, own clock) while it waits,
// and (service phase) while it is served; absorbed as `served` or `obsolete`. Arrivals after the
// tagged page cannot overtake it, so the chain does not depend on the policy.
#include <Eigen/Core>
#include <atomic>
#include <mutex>
#include <vector>

#include "analytic/sojourn/tagged_page_operator.hpp"
#include "analytic/stationary/controlled_arrivals.hpp"
#include "analytic/stationary/state_space.hpp"
#include "model/model.hpp"
#include "model/name_table.hpp"

namespace crawlq::analytic {

enum class PageFate { kAccepted, kServed, kObsolete };
inline constexpr model::NameTable<PageFate, 3> kPageFateNames{
    "fate",
    {{{PageFate::kAccepted, "accepted"},
      {PageFate::kServed, "served"},
      {PageFate::kObsolete, "obsolete"}}}};

class TaggedPageChain {
 public:
  // `threads` share each product with T (the sums are the same for any count).
  explicit TaggedPageChain(const model::Model& model, int threads = 1);

  // Transient states: first the M in-service states, then for j = 0..K-2 the block of
  // M R^{j+1} waiting states (service phase slowest, then clocks ahead from the head, own clock
  // last).
  Eigen::Index size() const { return operator_.size(); }
  Eigen::Index waiting_offset(int pages_ahead) const { return operator_.offset(pages_ahead); }
  int max_pages_ahead() const { return operator_.max_pages_ahead(); }

  // T, applied from its factors (never stored).
  const TaggedPageOperator& subgenerator() const { return operator_; }
  int threads() const { return threads_; }  // for products with T
  // (shift I - T)^{-1} rhs, solved block by block from the server outwards (-T is block
  // lower-triangular in the pages ahead); shift 0 gives (-T)^{-1}.
  Eigen::VectorXd resolvent(const Eigen::VectorXd& rhs, double shift) const;
  const Eigen::VectorXd& served_exit() const { return served_exit_; }  // service completion
  const Eigen::VectorXd& obsolete_exit() const { return obsolete_exit_; }
  // Absorption rates into `fate` (accepted: either, summed afresh).
  Eigen::VectorXd exit(PageFate fate) const;
  // (-T)^{-(k+1)} t_fate for k = 0, 1, 2: from each state, E[tau^k ; fate] / k!. They do not depend
  // on the policy, so a policy search computes them once. Only the two fates' are kept (accepted is
  // their sum: three vectors of the chain's size fewer), so this is a copy, or the sum. k = 2 (the
  // standard deviations) is solved on first use: the means need k < 2 only.
  Eigen::VectorXd moment_vector(PageFate fate, int k) const;
  // How many moments (k = 0, 1, ...) are solved so far: 2, then 3 once k = 2 was asked for.
  int solved_moments() const { return solved_moments_; }
  // start . moment_vector(fate, k) without the copy: E[tau^k ; fate] / k! for a page that starts as
  // `start` says.
  double moment_from(const Eigen::RowVectorXd& start, PageFate fate, int k) const;
  // The largest exit rate of a transient state: the uniformisation rate.
  double max_exit_rate() const { return max_exit_rate_; }

  // Where an arriving page starts, weighted by the arrival-Palm probability of each arrival state,
  // position in the batch uniform; lost pages carry no weight, so the sum is 1 - P_loss.
  Eigen::RowVectorXd arrival_distribution(const model::Model& model,
                                          const ControlledArrivals& arrivals,
                                          const StateSpace& space, const Eigen::VectorXd& p) const;
  // The same for a full-state policy: robots[x] in state x of `space` (full_state_chain.hpp).
  Eigen::RowVectorXd arrival_distribution(const model::Model& model, const std::vector<int>& robots,
                                          const StateSpace& space, const Eigen::VectorXd& p) const;
  // The gradient with respect to p of (the unnormalised arrival weights of p) times `m`, a vector
  // over this chain's states: entry x is what state x of `space` adds to it per unit of p(x). The
  // transpose of arrival_distribution's sum, for the adjoint sensitivities.
  Eigen::VectorXd arrival_gradient(const model::Model& model, const ControlledArrivals& arrivals,
                                   const StateSpace& space, const Eigen::VectorXd& m) const;

 private:
  // Adds the unnormalised arrival weights of `p` (which need not sum to 1) into `start`; returns
  // the pages offered per unit time that `p` carries.
  double add_arrivals(const model::Model& model, const ControlledArrivals& arrivals,
                      const StateSpace& space, const Eigen::VectorXd& p,
                      Eigen::RowVectorXd& start) const;

  class BlockSolvers;
  Eigen::VectorXd solve_blocks(const BlockSolvers& solvers, const Eigen::VectorXd& rhs,
                               int threads) const;
  // Moments first..last of both fates, from the one below (or the exit rates).
  void solve_moments(int first, int last) const;
  // Of PageFate::kServed or kObsolete.
  const Eigen::VectorXd& kept_moment(PageFate fate, int k) const;

  TaggedPageOperator operator_;
  int threads_;
  Eigen::VectorXd served_exit_, obsolete_exit_;
  mutable Eigen::VectorXd moments_[2][3];  // [served, obsolete][k]
  mutable std::once_flag third_moment_;
  mutable std::atomic<int> solved_moments_{0};
  double max_exit_rate_ = 0;
  model::RowVector beta_, gamma_;
  // gamma^{(x)l}, l = 0..min(K, the longest batch): the clocks of new pages
  std::vector<model::RowVector> gamma_powers_;
  int service_phases_, clock_phases_;
  int capacity_;
};

}  // namespace crawlq::analytic
