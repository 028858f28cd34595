#include "analytic/stationary/pinned_system.hpp"

namespace crawlq::analytic {

// p_pin = 1 in p Q = 0 leaves Q^T[-pin, -pin] x = -Q^T[-pin, pin], nonsingular for an irreducible
// chain. Q is row-major, so its rows are the columns of Q^T: the system is copied out column by
// column, in order, with no triplets and no sort (at K = 18 those cost more than the solve).
PinnedSystem pin_state(const SparseMatrix& q, Eigen::Index pinned) {
  const Eigen::Index n = q.rows();
  const auto index = [pinned](Eigen::Index i) { return i < pinned ? i : i - 1; };
  PinnedSystem s{Eigen::SparseMatrix<double>(n - 1, n - 1), Eigen::VectorXd::Zero(n - 1), pinned};
  s.matrix.reserve(q.nonZeros());
  for (Eigen::Index r = 0; r < n; ++r) {
    if (r == pinned) {
      for (SparseMatrix::InnerIterator it(q, r); it; ++it)
        if (it.col() != pinned) s.rhs(index(it.col())) -= it.value();
      continue;
    }
    s.matrix.startVec(index(r));
    for (SparseMatrix::InnerIterator it(q, r); it; ++it)
      if (it.col() != pinned) s.matrix.insertBack(index(it.col()), index(r)) = it.value();
  }
  s.matrix.finalize();
  return s;
}

Eigen::VectorXd unpin(const Eigen::VectorXd& x, Eigen::Index pinned) {
  Eigen::VectorXd p(x.size() + 1);
  for (Eigen::Index i = 0; i < p.size(); ++i) p(i) = i == pinned ? 1.0 : x(i < pinned ? i : i - 1);
  return p / p.sum();
}

}  // namespace crawlq::analytic
