#include "analytic/stationary/generator_blocks.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "analytic/stationary/controlled_arrivals.hpp"
#include "analytic/stationary/kronecker_terms.hpp"
#include "model/admission.hpp"

namespace crawlq::analytic {

bool batches_are_single(const model::ArrivalModes& arrivals) {
  for (int r = 1; r <= arrivals.modes(); ++r)
    for (int k = 2; k <= arrivals.mode(r).max_batch(); ++k)
      if (arrivals.mode(r).d(k).cwiseAbs().maxCoeff() > 0) return false;
  return true;
}

GeneratorBlocks::GeneratorBlocks(const model::Model& model, const model::ControlPolicy& policy,
                                 std::shared_ptr<const PolicyFreeBlocks> shared)
    : model_(model),
      policy_(policy),
      arrivals_(model, policy),
      space_(model, arrivals_.phases()),
      single_arrivals_(batches_are_single(model.arrivals)),
      policy_free_(std::move(shared)) {
  if (policy_free_ && policy_free_->environment_phases() != space_.arrival_phases())
    throw std::logic_error(
        "GeneratorBlocks: shared blocks for another number of environment phases");
}

void GeneratorBlocks::build() const {
  const model::Model& model = model_;
  const int capacity = model.capacity;
  const Eigen::Index w = space_.arrival_phases();
  if (!policy_free_) policy_free_ = std::make_shared<PolicyFreeBlocks>(model_, w);
  const PolicyFreeBlocks& fixed = *policy_free_;
  const auto gamma_power = [&](int a) -> const Sparse& { return fixed.gamma_power(a); };

  blocks_.resize(capacity + 1);
  for (int level = 0; level <= capacity; ++level) {
    const ArrivalRows& rows = arrivals_.at_level(level);
    // to = level-1 .. the highest level a batch reaches
    std::vector<Sparse> row(std::min(capacity - level, rows.max_batch()) + 2);
    const auto admitted = arrivals_.by_admitted(level);
    const Sparse stay = to_sparse(rows.d_k(0) + admitted[0]);
    if (level == 0) {
      row[1] = stay;
      for (int a = 1; a + 1 < static_cast<int>(row.size()); ++a)
        if (!admitted[a].isZero(0))
          row[1 + a] = kron(kron(to_sparse(admitted[a]), fixed.beta()), gamma_power(a - 1));
    } else {
      const Sparse rest = identity(space_.level_size(level) / w);
      row[1] = Sparse(kron(stay, rest) + fixed.within(level));
      for (int a = 1; a + 1 < static_cast<int>(row.size()); ++a)
        if (!admitted[a].isZero(0))
          row[1 + a] = kron(kron(to_sparse(admitted[a]), rest), gamma_power(a));
      // A page leaves: the environment stays, or the controller switches on entering the level
      // below.
      const auto jump = arrivals_.on_entering(level - 1);
      row[0] = jump ? kron(to_sparse(*jump), fixed.leaving_alone(level)) : fixed.leaving(level);
    }
    // Blocks past the last batch that reaches them are zero and not kept: a long buffer with short
    // batches would otherwise hold K^2 / 2 of them.
    std::size_t kept = 2;
    for (std::size_t i = row.size(); i > 2; --i)
      if (row[i - 1].nonZeros() > 0) {
        kept = i;
        break;
      }
    row.resize(kept);
    for (std::size_t i = 0; i < row.size(); ++i) {
      const int to = level - 1 + static_cast<int>(i);
      if (to < 0) continue;
      Sparse& block = row[i];
      if (block.rows() == 0) block.resize(space_.level_size(level), space_.level_size(to));
      block.makeCompressed();
    }
    blocks_[level].reserve(row.size());
    for (auto& b : row) blocks_[level].emplace_back(std::move(b));
  }
  std::set<Eigen::Index> sizes;
  for (int level = 0; level <= capacity; ++level) sizes.insert(space_.level_size(level));
  for (const Eigen::Index rows : sizes)
    for (const Eigen::Index cols : sizes)
      zeros_.emplace(std::make_pair(rows, cols), SparseMatrix(rows, cols));
}

int GeneratorBlocks::highest_reach(int from) const {
  std::call_once(built_, [this] { build(); });
  return from - 2 + static_cast<int>(blocks_[static_cast<std::size_t>(from)].size());
}

const SparseMatrix& GeneratorBlocks::block(int from, int to) const {
  std::call_once(built_, [this] { build(); });
  if (to > capacity() || from < 0 || from > capacity()) return empty_;
  const auto& row = blocks_[static_cast<std::size_t>(from)];
  const int index = to - from + 1;
  if (index < 0 || index >= static_cast<int>(row.size()))
    return zeros_.at({space_.level_size(from), space_.level_size(to)});
  return row[static_cast<std::size_t>(index)];
}

SparseMatrix GeneratorBlocks::assemble() const {
  std::call_once(built_, [this] { build(); });
  // Row by row, each row's blocks from the lowest level it reaches up: its entries arrive in
  // column order, so the matrix is written in place, with no triplets to hold and sort (they took
  // more time and twice the memory at K = 16).
  Eigen::Index entries = 0;
  for (int from = 0; from <= capacity(); ++from)
    for (int to = std::max(0, from - 1); to <= std::min(capacity(), highest_reach(from)); ++to)
      entries += block(from, to).nonZeros();
  SparseMatrix q(space_.size(), space_.size());
  q.reserve(entries);
  for (int from = 0; from <= capacity(); ++from) {
    const Eigen::Index offset = space_.level_offset(from);
    const int lowest = std::max(0, from - 1), highest = std::min(capacity(), highest_reach(from));
    for (Eigen::Index r = 0; r < space_.level_size(from); ++r) {
      q.startVec(offset + r);
      for (int to = lowest; to <= highest; ++to)
        for (SparseMatrix::InnerIterator it(block(from, to), r); it; ++it)
          q.insertBack(offset + r, space_.level_offset(to) + it.col()) = it.value();
    }
  }
  q.finalize();
  return q;
}

}  // namespace crawlq::analytic
