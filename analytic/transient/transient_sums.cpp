#include "analytic/transient/transient_sums.hpp"

#include <algorithm>

#include "analytic/stationary/kronecker_terms.hpp"
#include "model/admission.hpp"

namespace crawlq::analytic {

namespace {
// Small enough that the top levels split over the threads, large enough that a block's slot costs
// nothing beside its entries.
constexpr Eigen::Index kBlockEntries = 1 << 15;

// What one block adds up.
struct BlockSums {
  double probability = 0, expiry = 0;
};
}  // namespace

void TransientSums::add(double a, const TransientSums& x) {
  if (a == 0) return;
  for (std::size_t i = 0; i < levels.size(); ++i) levels[i] += a * x.levels[i];
  in_system += a * x.in_system;
  in_queue += a * x.in_queue;
  robots += a * x.robots;
  offered += a * x.offered;
  lost += a * x.lost;
  obsolete += a * x.obsolete;
  served += a * x.served;
}

TransientSumsKernel::TransientSumsKernel(const model::Model& model,
                                         const ControlledArrivals& arrivals,
                                         const StateSpace& space)
    : arrivals_(arrivals), space_(space), capacity_(model.capacity) {
  const KroneckerTerms terms(model.service, model.obsolescence ? &*model.obsolescence : nullptr);
  completion_ = Eigen::VectorXd(terms.s0());
  const Eigen::Index w = space.arrival_phases(), m = completion_.size();
  for (int level = 0; level <= capacity_; ++level) {
    Level l;
    const ArrivalRows& rows = arrivals.at_level(level);
    l.offered = l.lost = Eigen::VectorXd::Zero(rows.phases());
    for (int k = 1; k <= rows.max_batch(); ++k) {
      const Eigen::VectorXd batch_rate = rows.d_k(k) * Eigen::VectorXd::Ones(rows.phases());
      l.offered += k * batch_rate;
      l.lost += (k - model::accepted_pages(model.admission, level, capacity_, k)) * batch_rate;
    }
    const Eigen::Index rest = space.level_size(level) / w;
    const Eigen::Index clocks = level == 0 ? 1 : rest / m;
    if (level >= 2) l.expiry = terms.total_expiry_rate(level - 1);
    levels_.push_back(std::move(l));
    for (Eigen::Index a = 0; a < w; ++a)
      for (Eigen::Index s = 0; s < (level == 0 ? 1 : m); ++s)
        for (Eigen::Index c = 0; c < clocks; c += kBlockEntries)
          blocks_.push_back({.begin = space.level_offset(level) + a * rest + s * clocks + c,
                             .length = std::min(kBlockEntries, clocks - c),
                             .level = level,
                             .arrival = static_cast<int>(a),
                             .service = level == 0 ? -1 : static_cast<int>(s),
                             .clock_begin = c});
  }
}

TransientSums TransientSumsKernel::sums(const Eigen::VectorXd& p, int threads) const {
  std::vector<BlockSums> slots(blocks_.size());
  // OpenMP, as the products: its threads are the ones already waiting for the next product.
  const auto count = static_cast<std::ptrdiff_t>(blocks_.size());
#pragma omp parallel for num_threads(std::max(threads, 1)) schedule(static) if (count > 1)
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    const Block& b = blocks_[static_cast<std::size_t>(i)];
    const auto entries = p.segment(b.begin, b.length);
    BlockSums& slot = slots[static_cast<std::size_t>(i)];
    slot.probability = entries.sum();
    const Eigen::VectorXd& expiry = levels_[static_cast<std::size_t>(b.level)].expiry;
    if (expiry.size() > 0) slot.expiry = entries.dot(expiry.segment(b.clock_begin, b.length));
  }
  TransientSums out(static_cast<std::size_t>(capacity_) + 1);
  const Eigen::Index w = space_.arrival_phases();
  Eigen::VectorXd by_arrival = Eigen::VectorXd::Zero(w);
  int level = -1;
  // Each level's totals once its blocks are added (they come in level order).
  const auto close_level = [&](int done) {
    const Level& l = levels_[static_cast<std::size_t>(done)];
    const double probability = by_arrival.sum();
    out.levels[static_cast<std::size_t>(done)] = probability;
    out.in_system += done * probability;
    out.in_queue += std::max(done - 1, 0) * probability;
    if (const auto robots = arrivals_.robots_at_level(done))
      out.robots += *robots * probability;
    else
      for (Eigen::Index a = 0; a < w; ++a)
        out.robots += arrivals_.robots(done, static_cast<int>(a)) * by_arrival(a);
    out.offered += by_arrival.dot(l.offered);
    out.lost += by_arrival.dot(l.lost);
    by_arrival.setZero();
  };
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    const Block& b = blocks_[i];
    if (b.level != level) {
      if (level >= 0) close_level(level);
      level = b.level;
    }
    by_arrival(b.arrival) += slots[i].probability;
    if (b.service >= 0) out.served += completion_(b.service) * slots[i].probability;
    out.obsolete += slots[i].expiry;
  }
  close_level(level);
  return out;
}

}  // namespace crawlq::analytic
