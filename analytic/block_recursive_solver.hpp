#pragma once
// The paper's algorithm for block upper-Hessenberg generators (section 3, steps 1-5, after [9]):
// censor the chain level by level from the top (G_i, Q-bar_{i,l}), then build p_i = p_0 F_i.
#include "analytic/stationary_solver.hpp"

namespace crawlq::analytic {

class BlockRecursiveSolver final : public StationarySolver {
 public:
  Method method() const override { return Method::kBlockRecursion; }
  StationaryResult solve(const GeneratorBlocks& blocks) const override;
};

}  // namespace crawlq::analytic
