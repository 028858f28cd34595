#pragma once
// The assembled generator solved directly (Eigen's SparseLU): the cross-check of the recursions.
#include "analytic/stationary_solver.hpp"

namespace crawlq::analytic {

class SparseLuSolver final : public StationarySolver {
 public:
  Method method() const override { return Method::kSparseLu; }
  StationaryResult solve(const GeneratorBlocks& blocks) const override;
};

}  // namespace crawlq::analytic
