#pragma once
// The assembled generator solved directly: the cross-check of the recursions and of the iterative
// solver. UMFPACK (SuiteSparse) factorises the pinned system in a METIS nested-dissection order;
// its dense frontal matrices go through the BLAS, so it is fast on OpenBLAS (.ci/install-deps).
// Measured on the paper's example (W = M = R = 2, batches up to 4), one core:
//   K = 10 (4,094 states): UMFPACK 0.5 s (5.4 s on the reference BLAS); Eigen's SparseLU 8 s with
//     COLAMD, 10 s with AMD, 4 s in the natural (level) order; SuperLU 16 s; KLU 18 s.
//   K = 12 (16,382): UMFPACK 14 s, 2.1 GB (225 s on the reference BLAS); SparseLU 185 s in the
//     natural order, 384 s with COLAMD.
//   K = 13 (32,766): UMFPACK 118 s, 9.5 GB.
// No order keeps the factors sparse: a page's clock expires from any place in the queue, so L + U
// hold about 0.4 n^2 entries with the best order. K = 14 (65,534 states) would need 7e13 flops and
// over 30 GB by UMFPACK's own estimate: out of reach (the iterative solver takes 0.06 s there).
#include "analytic/stationary/stationary_solver.hpp"

namespace crawlq::analytic {

class SparseLuSolver final : public StationarySolver {
 public:
  Method method() const override { return Method::kSparseLu; }
  StationaryResult solve(const GeneratorBlocks& blocks) const override;
};

}  // namespace crawlq::analytic
