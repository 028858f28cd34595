#pragma once
// The stationary solvers by name, apart from them, so that what weighs a solver (its memory, the
// choice of auto) need not include the solvers.

namespace crawlq::analytic {

enum class Method {
  kAuto,            // picks one of the others by the chain's shape and size
  kBlockRecursion,  // section 3, steps 1-5
  kQbd,             // section 6: single arrivals only
  kSparseLu,   // the assembled generator, UMFPACK's sparse LU (name kept from Eigen's SparseLU)
  kIterative,  // BiCGSTAB, the generator applied from its factors (never stored)
};

}  // namespace crawlq::analytic
