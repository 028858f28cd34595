#pragma once
// Section 6: with single arrivals Q is block tridiagonal (a finite level-dependent QBD) and the
// recursion keeps only G_i and one factorisation per level.
#include "analytic/stationary/stationary_solver.hpp"

namespace crawlq::analytic {

class QbdSolver final : public StationarySolver {
 public:
  Method method() const override { return Method::kQbd; }
  std::string refusal(const GeneratorBlocks& blocks) const override;
  // The same, from the model alone: before any work.
  static std::string refusal(const model::Model& model);
  StationaryResult solve(const GeneratorBlocks& blocks) const override;
};

}  // namespace crawlq::analytic
