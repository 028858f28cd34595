#pragma once
// Passes over long vectors on threads, in blocks of a fixed size: a sum's parts are added in block
// order, so its bits do not depend on the thread count. OpenMP, as the products: its threads are
// the ones already waiting for the next product.
#include <Eigen/Core>
#include <algorithm>
#include <cstddef>
#include <vector>

namespace crawlq::analytic {

inline constexpr Eigen::Index kVectorBlock = 1 << 15;

// body(begin, length) for each block of [0, n), on `threads`.
template <class Body>
void for_vector_blocks(Eigen::Index n, int threads, const Body& body) {
  const Eigen::Index blocks = (n + kVectorBlock - 1) / kVectorBlock;
#pragma omp parallel for num_threads(std::max(threads, 1)) schedule(static) if (blocks > 1)
  for (Eigen::Index b = 0; b < blocks; ++b) {
    const Eigen::Index begin = b * kVectorBlock;
    body(begin, std::min(kVectorBlock, n - begin));
  }
}

// The sum over the blocks of part(begin, length), added in block order.
template <class Part>
double sum_vector_blocks(Eigen::Index n, int threads, const Part& part) {
  const Eigen::Index blocks = (n + kVectorBlock - 1) / kVectorBlock;
  std::vector<double> parts(static_cast<std::size_t>(blocks), 0.0);
  for_vector_blocks(n, threads, [&](Eigen::Index begin, Eigen::Index length) {
    parts[static_cast<std::size_t>(begin / kVectorBlock)] = part(begin, length);
  });
  double sum = 0;
  for (const double value : parts) sum += value;
  return sum;
}

}  // namespace crawlq::analytic
