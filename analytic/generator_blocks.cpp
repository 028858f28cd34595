#include "analytic/generator_blocks.hpp"

#include <vector>

#include "model/admission.hpp"
#include "analytic/kronecker_terms.hpp"

namespace crawlq::analytic {

namespace {

// D_k of the level's mode, grouped by how many pages of the batch get in: index 0 holds the batches
// lost whole (the arrival phase still moves), index a those that add a pages.
std::vector<Eigen::MatrixXd> batches_by_admitted(const model::Model& model, const model::Bmap& bmap,
                                                 int level) {
  const int w = bmap.phases();
  std::vector<Eigen::MatrixXd> by_admitted(model.capacity - level + 1, Eigen::MatrixXd::Zero(w, w));
  for (int k = 1; k <= bmap.max_batch(); ++k)
    by_admitted[model::accepted_pages(model.admission, level, model.capacity, k)] += bmap.d(k);
  return by_admitted;
}

}  // namespace

bool batches_are_single(const model::ArrivalModes& arrivals) {
  for (int r = 1; r <= arrivals.modes(); ++r)
    for (int k = 2; k <= arrivals.mode(r).max_batch(); ++k)
      if (arrivals.mode(r).d(k).cwiseAbs().maxCoeff() > 0) return false;
  return true;
}

GeneratorBlocks::GeneratorBlocks(const model::Model& model, const model::Policy& policy)
    : model_(model), policy_(policy), space_(model), single_arrivals_(batches_are_single(model.arrivals)) {}

void GeneratorBlocks::build() const {
  const model::Model& model = model_;
  const model::Policy& policy = policy_;
  const int capacity = model.capacity;
  const KroneckerTerms terms(model.service, model.obsolescence ? &*model.obsolescence : nullptr);
  const Eigen::Index w = space_.arrival_phases();
  const Sparse iw = identity(w);

  blocks_.resize(capacity + 1);
  for (int level = 0; level <= capacity; ++level) {
    std::vector<Sparse> row(capacity - level + 2);  // to = level-1 .. capacity
    const model::Bmap& bmap = model.arrivals.mode(policy.robots(level));
    const auto admitted = batches_by_admitted(model, bmap, level);
    const Sparse stay = to_sparse(bmap.d(0) + admitted[0]);
    if (level == 0) {
      row[1] = stay;
      for (int a = 1; a <= capacity; ++a)
        row[1 + a] = kron(kron(to_sparse(admitted[a]), terms.beta()), terms.gamma_power(a - 1));
    } else {
      const int waiting = level - 1;
      const Sparse rest = identity(space_.level_size(level) / w);
      row[1] = Sparse(kron(stay, rest) + kron(iw, terms.a(waiting)));
      for (int a = 1; level + a <= capacity; ++a)
        row[1 + a] = kron(kron(to_sparse(admitted[a]), rest), terms.gamma_power(a));
      row[0] = waiting == 0 ? kron(iw, terms.s0()) : kron(iw, terms.b(waiting));
    }
    for (int to = level - 1; to <= capacity; ++to) {
      if (to < 0) continue;
      Sparse& block = row[to - level + 1];
      if (block.rows() == 0) block.resize(space_.level_size(level), space_.level_size(to));
      block.makeCompressed();
    }
    blocks_[level].reserve(row.size());
    for (auto& b : row) blocks_[level].emplace_back(std::move(b));
  }
}

const SparseMatrix& GeneratorBlocks::block(int from, int to) const {
  std::call_once(built_, [this] { build(); });
  if (to < from - 1 || to > capacity() || from < 0 || from > capacity()) return empty_;
  return blocks_[from][to - from + 1];
}

SparseMatrix GeneratorBlocks::assemble() const {
  std::call_once(built_, [this] { build(); });
  std::vector<Eigen::Triplet<double>> entries;
  for (int from = 0; from <= capacity(); ++from)
    for (int to = std::max(0, from - 1); to <= capacity(); ++to) {
      const SparseMatrix& b = block(from, to);
      for (Eigen::Index r = 0; r < b.outerSize(); ++r)
        for (SparseMatrix::InnerIterator it(b, r); it; ++it)
          entries.emplace_back(space_.level_offset(from) + it.row(), space_.level_offset(to) + it.col(),
                               it.value());
    }
  SparseMatrix q(space_.size(), space_.size());
  q.setFromTriplets(entries.begin(), entries.end());
  return q;
}

}  // namespace crawlq::analytic
