#pragma once
// The paper's algorithm for block upper-Hessenberg generators (section 3, steps 1-5, after [9]):
// censor the chain level by level from the top (G_i and the diagonal Q-bar_{l,l}), then build
// p_l = p_0 F_l. Two choices keep it fast:
//  - Q-bar_{i,l} for i < l is never formed: step 3 needs it only inside F_i Q-bar_{i,l}, which has
//    the W rows of F_i and is summed by a Horner scheme over the G's;
//  - the heavy part for level l (the factorisation of -Q-bar_{l,l} and G_{l-1}) depends only on the
//    robots at levels l..K, so a policy search caches it by that suffix and shares it.
#include <Eigen/Dense>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "analytic/stationary/stationary_solver.hpp"

namespace crawlq::analytic {

// What level l contributes to the recursion: -Q-bar_{l,l} factorised, and G_{l-1}.
struct LevelFactor {
  Eigen::PartialPivLU<Eigen::MatrixXd> minus_diagonal;
  Eigen::MatrixXd g_below;  // G_{l-1} = (-Q-bar_{l,l})^{-1} Q_{l,l-1}
  std::size_t bytes() const;
};

// Level factors by what the blocks of levels l..K depend on (ControlledArrivals::signature),
// written as runs from the top down so that a long buffer's key stays short; thread-safe. Stops
// storing past a memory budget.
class BlockRecursionCache {
 public:
  explicit BlockRecursionCache(std::size_t budget_bytes = std::size_t{4} << 30)
      : budget_(budget_bytes) {}
  std::shared_ptr<const LevelFactor> find(const std::vector<int>& suffix_runs) const;
  void store(const std::vector<int>& suffix_runs, std::shared_ptr<const LevelFactor> factor);

 private:
  mutable std::mutex mutex_;
  std::map<std::vector<int>, std::shared_ptr<const LevelFactor>> factors_;
  std::size_t bytes_ = 0, budget_;
};

class BlockRecursiveSolver final : public StationarySolver {
 public:
  explicit BlockRecursiveSolver(BlockRecursionCache* cache = nullptr) : cache_(cache) {}
  Method method() const override { return Method::kBlockRecursion; }
  StationaryResult solve(const GeneratorBlocks& blocks) const override;

 private:
  BlockRecursionCache* cache_;
};

}  // namespace crawlq::analytic
