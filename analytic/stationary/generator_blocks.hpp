#pragma once
// The generator Q of the Lemma (section 3) as blocks Q_{i,i'} built from Kronecker products and
// sums of the small matrices, for any robots-per-level map and either admission rule. Q is block
// upper Hessenberg: a level falls by at most one page at a time. The blocks are built on first use:
// the iterative solver applies Q from its factors (generator_operator.hpp) and never asks for them.
#include <Eigen/SparseCore>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "analytic/stationary/controlled_arrivals.hpp"
#include "analytic/stationary/policy_free_blocks.hpp"
#include "analytic/stationary/state_space.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// True when every batch of every mode has one page (section 6: Q is block tridiagonal).
bool batches_are_single(const model::ArrivalModes& arrivals);

class GeneratorBlocks {
 public:
  // `shared`: the policy-free parts for this model and this policy's number of environment phases,
  // from a PolicyEvaluator that solves many policies (nullptr: built here when needed).
  GeneratorBlocks(const model::Model& model, const model::ControlPolicy& policy,
                  std::shared_ptr<const PolicyFreeBlocks> shared = nullptr);

  const model::Model& model() const { return model_; }
  const model::ControlPolicy& policy() const { return policy_; }
  const ControlledArrivals& arrivals() const { return arrivals_; }
  const StateSpace& space() const { return space_; }
  int capacity() const { return space_.capacity(); }
  // Q_{from,to}; the zero block when to < from-1.
  const SparseMatrix& block(int from, int to) const;
  // True when every batch has one page (section 6: Q is block tridiagonal).
  bool single_arrivals() const { return single_arrivals_; }
  // The highest level `from` reaches in one move (the blocks beyond it are zero).
  int highest_reach(int from) const;
  // The whole of Q, for direct solvers and residuals.
  SparseMatrix assemble() const;

 private:
  void build() const;

  model::Model model_;
  model::ControlPolicy policy_;
  ControlledArrivals arrivals_;
  StateSpace space_;
  bool single_arrivals_;
  mutable std::shared_ptr<const PolicyFreeBlocks> policy_free_;
  mutable std::once_flag built_;
  // blocks_[from][to - from + 1], up to the last block that is not zero.
  mutable std::vector<std::vector<SparseMatrix>> blocks_;
  // The zero block of every shape, for the blocks past those kept (level sizes differ only when
  // pages' clocks have several phases, and then K is small).
  mutable std::map<std::pair<Eigen::Index, Eigen::Index>, SparseMatrix> zeros_;
  SparseMatrix empty_;
};

}  // namespace crawlq::analytic
