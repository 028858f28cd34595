#include "analytic/stationary/block_recursive_solver.hpp"

#include <algorithm>
#include <vector>

#include "model/linear_algebra.hpp"

namespace crawlq::analytic {

namespace {
using Dense = Eigen::MatrixXd;

// Q-bar_{l,l} = Q_{l,l} + sum_{m>l} Q_{l,m} G_{m-1} ... G_l, by Horner from the top (step 2), with
// row_block(m) = Q_{l,m} and `top` the highest level l reaches. Zero blocks (batches too small to
// reach level m) cost nothing.
template <typename RowBlock>
Dense horner(int l, int top, const RowBlock& row_block, const std::vector<const Dense*>& g) {
  Dense y;
  bool zero = true;
  for (int m = top; m >= l; --m) {
    if (!zero && m < top) y = y * *g[m];  // y G_m
    const auto& contribution = row_block(m);
    if (contribution.nonZeros() > 0 || m == l) {
      if (zero) {
        y = Dense(contribution);
        zero = false;
      } else {
        y += contribution;
      }
    }
  }
  return y;
}
}  // namespace

std::size_t LevelFactor::bytes() const {
  return sizeof(double) * (minus_diagonal.matrixLU().size() + g_below.size());
}

std::shared_ptr<const LevelFactor> BlockRecursionCache::find(const std::vector<int>& suffix) const {
  std::lock_guard lock(mutex_);
  const auto it = factors_.find(suffix);
  return it == factors_.end() ? nullptr : it->second;
}

void BlockRecursionCache::store(const std::vector<int>& suffix,
                                std::shared_ptr<const LevelFactor> factor) {
  std::lock_guard lock(mutex_);
  if (bytes_ + factor->bytes() > budget_) return;
  bytes_ += factor->bytes();
  factors_.emplace(suffix, std::move(factor));
}

StationaryResult BlockRecursiveSolver::solve(const GeneratorBlocks& blocks) const {
  const int k = blocks.capacity();
  const StateSpace& space = blocks.space();
  const ControlledArrivals& arrivals = blocks.arrivals();

  // Step 1 with the diagonal of step 2: level factors from the top down.
  std::vector<std::shared_ptr<const LevelFactor>> factor(k + 1);
  std::vector<const Dense*> g(k + 1, nullptr);  // g[m] = G_m
  // The signatures of levels l..K as runs (signature, its length, levels), the top one first.
  std::vector<int> suffix, last_signature;
  for (int l = k; l >= 1; --l) {
    std::vector<int> signature = arrivals.signature(l);
    if (!suffix.empty() && signature == last_signature) {
      ++suffix.back();
    } else {
      suffix.insert(suffix.end(), signature.begin(), signature.end());
      suffix.insert(suffix.end(), {static_cast<int>(signature.size()), 1});
      last_signature = std::move(signature);
    }
    if (cache_) factor[l] = cache_->find(suffix);
    if (!factor[l]) {
      auto made = std::make_shared<LevelFactor>();
      const Dense diagonal = horner(
          l, blocks.highest_reach(l),
          [&](int m) -> const SparseMatrix& { return blocks.block(l, m); }, g);
      made->minus_diagonal.compute(-diagonal);
      made->g_below = made->minus_diagonal.solve(Dense(blocks.block(l, l - 1)));
      factor[l] = made;
      if (cache_) cache_->store(suffix, made);
    }
    g[l - 1] = &factor[l]->g_below;
  }

  // Steps 4, 3 and 5 on the vector itself: p_0 Q-bar_{0,0} = 0 fixes p_0 up to a factor, and then
  // p_l = (sum_{i<l} p_i Q-bar_{i,l}) (-Q-bar_{l,l})^{-1}, the sum being sum_{m>=l} h_m
  // G_{m-1}...G_l with h_m = sum_{i<l} p_i Q_{i,m} grown one level at a time. Working with the row
  // vector rather than the W-row matrices F_l keeps every product a matrix-vector one; the
  // normalisation p e = 1 comes last.
  const Dense bar00 = horner(
      0, blocks.highest_reach(0), [&](int m) -> const SparseMatrix& { return blocks.block(0, m); },
      g);
  const Eigen::Index w = space.level_size(0);
  // Q-bar_{0,0} generates the chain censored on level 0: p_0 is its stationary vector, up to scale.
  const Eigen::RowVectorXd p0 = model::stationary_distribution(bar00);
  StationaryResult result;
  Eigen::VectorXd& p = result.probabilities;
  p.resize(space.size());
  p.segment(0, w) = p0.transpose();
  std::vector<Eigen::RowVectorXd> h(k + 1);
  for (int m = 0; m <= k; ++m) h[m] = Eigen::RowVectorXd::Zero(space.level_size(m));
  int highest = 0;  // h_m = 0 above it: with short batches the sum stops long before K
  for (int l = 1; l <= k; ++l) {
    const Eigen::RowVectorXd below =
        p.segment(space.level_offset(l - 1), space.level_size(l - 1)).transpose();
    for (int m = l; m <= blocks.highest_reach(l - 1); ++m)
      if (blocks.block(l - 1, m).nonZeros() > 0) {
        h[m] += below * blocks.block(l - 1, m);
        highest = std::max(highest, m);
      }
    Eigen::RowVectorXd x = h[std::max(highest, l)];
    for (int m = std::max(highest, l) - 1; m >= l; --m) x = h[m] + x * *g[m];
    const Eigen::VectorXd level =
        factor[l]->minus_diagonal.transpose().solve(Eigen::VectorXd(x.transpose()));
    p.segment(space.level_offset(l), space.level_size(l)) = level;
  }
  p /= p.sum();
  result.summary.status = SolverStatus::kConverged;
  result.summary.iterations = k + 1;
  return result;
}

}  // namespace crawlq::analytic
