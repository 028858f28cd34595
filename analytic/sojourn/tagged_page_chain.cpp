#include "analytic/sojourn/tagged_page_chain.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <atomic>
#include <memory>

#include "analytic/adaptive_threads.hpp"
#include "analytic/stationary/controlled_arrivals.hpp"
#include "analytic/stationary/kronecker_sum_solver.hpp"
#include "analytic/stationary/kronecker_terms.hpp"
#include "model/admission.hpp"
#include "model/linear_algebra.hpp"
#include "model/worker_threads.hpp"

namespace crawlq::analytic {

namespace {

// Below this many states a diagonal block of shift I - T is factorised whole (which the brute-force
// crosscheck's small models then exercise beside the Schur path above it).
constexpr Eigen::Index kLargestDenseBlock = 64;

}  // namespace

// The diagonal blocks of shift I - T, factorised once for all the solves with that shift: the
// in-service block shift I - S, and with j pages ahead shift I - (S (+) Gamma^(+)(j+1)) (the
// server, their clocks and its own), solved through Schur forms beyond a few dozen states
// (kronecker_sum_solver.hpp). Only read when solving, so two threads may share them.
class TaggedPageChain::BlockSolvers {
 public:
  BlockSolvers(const TaggedPageOperator& op, double shift) : shift_(shift) {
    const Eigen::MatrixXd& s = op.service();
    const Eigen::MatrixXd& clock = op.clock();
    in_service_.compute(shift * Eigen::MatrixXd::Identity(s.rows(), s.cols()) - s);
    // The clocks' Kronecker sum grows by one clock a block; with one phase it stays 1 x 1, so a
    // long buffer costs K, not K^2.
    Eigen::MatrixXd clocks = Eigen::MatrixXd::Zero(1, 1);
    for (int ahead = 0; ahead <= op.max_pages_ahead(); ++ahead) {
      if (op.block_size(ahead) > kLargestDenseBlock) {
        kronecker_.push_back(std::make_unique<KroneckerSumSolver>(s, clock, ahead + 1));
        dense_.emplace_back();
        continue;
      }
      clocks = model::kron_sum(clocks, clock);
      const Eigen::MatrixXd sum = model::kron_sum(s, clocks);
      dense_.emplace_back(shift * Eigen::MatrixXd::Identity(sum.rows(), sum.cols()) - sum);
      kronecker_.push_back(nullptr);
    }
  }
  Eigen::VectorXd in_service(const Eigen::VectorXd& rhs) const { return in_service_.solve(rhs); }
  // The block `ahead` solved in place: rhs (its size) becomes the solution.
  void waiting(int ahead, double* rhs, Eigen::Index size, int threads) const {
    const auto& kronecker = kronecker_[static_cast<std::size_t>(ahead)];
    if (kronecker) return kronecker->solve_in_place(rhs, shift_, threads);
    Eigen::Map<Eigen::VectorXd> block(rhs, size);
    block = dense_[static_cast<std::size_t>(ahead)].solve(Eigen::VectorXd(block));
  }

 private:
  double shift_;
  Eigen::PartialPivLU<Eigen::MatrixXd> in_service_;
  std::vector<Eigen::PartialPivLU<Eigen::MatrixXd>> dense_;
  std::vector<std::unique_ptr<KroneckerSumSolver>> kronecker_;
};

TaggedPageChain::TaggedPageChain(const model::Model& model, int threads)
    : operator_(model),
      threads_(std::max(1, threads)),
      beta_(model.service.initial()),
      gamma_(model.obsolescence ? model.obsolescence->initial() : model::RowVector::Ones(1)),
      service_phases_(model.service.phases()),
      clock_phases_(static_cast<int>(gamma_.size())),
      capacity_(model.capacity) {
  const KroneckerTerms terms(model.service, model.obsolescence ? &*model.obsolescence : nullptr);
  const int m = service_phases_;
  served_exit_ = Eigen::VectorXd::Zero(size());
  obsolete_exit_ = Eigen::VectorXd::Zero(size());
  served_exit_.head(m) = Eigen::VectorXd(terms.s0());
  // Its own clock (the last) expiring ends the journey as obsolete.
  const Eigen::VectorXd own_exit = model.obsolescence
                                       ? Eigen::VectorXd(model.obsolescence->exit_rates())
                                       : Eigen::VectorXd::Zero(1);
  // Each block is whole cycles of its own clock, the last index.
  const Eigen::Index waiting = size() - waiting_offset(0);
  obsolete_exit_.tail(waiting) = own_exit.replicate(waiting / clock_phases_, 1);
  // Dense from the start (through sparse products they took a tenth of a second at K = 20), and
  // only as many as a batch has pages.
  gamma_powers_.push_back(model::RowVector::Ones(1));
  for (int l = 1; l <= std::min(model.capacity, model.arrivals.max_batch()); ++l)
    gamma_powers_.push_back(model::kron(gamma_powers_.back(), gamma_));
  max_exit_rate_ = std::max(0.0, -operator_.diagonal().minCoeff());

  // The means need the first two; the standard deviations (`--sojourn`) the third, on first use.
  solve_moments(0, 1);
}

// -T is block lower-triangular in the pages ahead (nothing after the tagged page overtakes it), so
// its solves go block by block, each diagonal block directly: the whole chain at once fills in a
// sparse factorisation, and makes a Krylov method carry the coupling across K blocks.
void TaggedPageChain::solve_moments(int first, int last) const {
  const BlockSolvers solvers(operator_, 0.0);
  // The two fates are independent chains of solves: one thread each when the cores' verdict gives
  // two (the factorisations are only read), else one thread both; each vector is computed the same
  // way whichever thread does it. With one of two cores held by another program, a fate on a thread
  // of its own shared that core for as long as the other fate took on the free one, and the free
  // core then waited (the scheduler did not move it within 9 ms): both in turn on the free core
  // take no longer. Each fate's solves share half the threads.
  const int threads = threads_for_region(threads_);
  const int per_fate = std::max(1, threads / 2);
  const std::array<const Eigen::VectorXd*, 2> exits{&served_exit_, &obsolete_exit_};
  const auto moments_of = [&](std::size_t fate) {
    for (int k = first; k <= last; ++k)
      moments_[fate][k] =
          solve_blocks(solvers, k == 0 ? *exits[fate] : moments_[fate][k - 1], per_fate);
  };
  std::atomic<std::size_t> next{0};
  model::run_on_threads(std::min(2, threads), [&] {
    for (std::size_t fate = next++; fate < exits.size(); fate = next++) moments_of(fate);
  });
  solved_moments_ = last + 1;
}

const Eigen::VectorXd& TaggedPageChain::kept_moment(PageFate fate, int k) const {
  if (k == 2) std::call_once(third_moment_, [&] { solve_moments(2, 2); });
  return moments_[fate == PageFate::kServed ? 0 : 1][k];
}

Eigen::VectorXd TaggedPageChain::solve_blocks(const BlockSolvers& solvers,
                                              const Eigen::VectorXd& rhs, int threads) const {
  Eigen::VectorXd x(size());
  x.head(service_phases_) = solvers.in_service(rhs.head(service_phases_));
  // Each block's right-hand side is built where its solution goes, and solved there.
  for (int ahead = 0; ahead <= max_pages_ahead(); ++ahead) {
    const Eigen::Index from = waiting_offset(ahead), n = operator_.block_size(ahead);
    x.segment(from, n) = rhs.segment(from, n);
    operator_.add_leaving(ahead, x.data() + operator_.offset(ahead - 1), x.data() + from);
    solvers.waiting(ahead, x.data() + from, n, threads);
  }
  return x;
}

Eigen::VectorXd TaggedPageChain::resolvent(const Eigen::VectorXd& rhs, double shift) const {
  return solve_blocks(BlockSolvers(operator_, shift), rhs, threads_for_region(threads_));
}

Eigen::VectorXd TaggedPageChain::exit(PageFate fate) const {
  switch (fate) {
    case PageFate::kServed:
      return served_exit_;
    case PageFate::kObsolete:
      return obsolete_exit_;
    case PageFate::kAccepted:
      break;
  }
  return served_exit_ + obsolete_exit_;
}

Eigen::VectorXd TaggedPageChain::moment_vector(PageFate fate, int k) const {
  if (fate == PageFate::kAccepted)
    return kept_moment(PageFate::kServed, k) + kept_moment(PageFate::kObsolete, k);
  return kept_moment(fate, k);
}

double TaggedPageChain::moment_from(const Eigen::RowVectorXd& start, PageFate fate, int k) const {
  if (fate == PageFate::kAccepted)
    return moment_from(start, PageFate::kServed, k) + moment_from(start, PageFate::kObsolete, k);
  return start.dot(kept_moment(fate, k));
}

Eigen::RowVectorXd TaggedPageChain::arrival_distribution(const model::Model& model,
                                                         const ControlledArrivals& arrivals,
                                                         const StateSpace& space,
                                                         const Eigen::VectorXd& p) const {
  Eigen::RowVectorXd start = Eigen::RowVectorXd::Zero(size());
  const double offered = add_arrivals(model, arrivals, space, p, start);
  return start / offered;
}

Eigen::RowVectorXd TaggedPageChain::arrival_distribution(const model::Model& model,
                                                         const std::vector<int>& robots,
                                                         const StateSpace& space,
                                                         const Eigen::VectorXd& p) const {
  // Each state's arrivals are those of its own mode: the states of each mode in turn.
  Eigen::RowVectorXd start = Eigen::RowVectorXd::Zero(size());
  double offered = 0;
  for (int r = 1; r <= model.modes(); ++r) {
    Eigen::VectorXd share = Eigen::VectorXd::Zero(p.size());
    for (Eigen::Index x = 0; x < p.size(); ++x)
      if (robots[static_cast<std::size_t>(x)] == r) share(x) = p(x);
    if (share.isZero(0)) continue;
    offered += add_arrivals(
        model, ControlledArrivals(model, model::Policy::constant(r, model.modes(), model.capacity)),
        space, share, start);
  }
  return start / offered;
}

double TaggedPageChain::add_arrivals(const model::Model& model, const ControlledArrivals& arrivals,
                                     const StateSpace& space, const Eigen::VectorXd& p,
                                     Eigen::RowVectorXd& start) const {
  using RowMajorMap =
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
  const int capacity = model.capacity;
  const Eigen::Index w = space.arrival_phases();
  double offered = 0;
  // start's entries from `offset` on += kron(a, b), written in place: the product's temporary
  // was a block's size (16 million entries at K = 24's top), made and read once a position.
  const auto add_kron = [&start](Eigen::Index offset, const Eigen::RowVectorXd& a,
                                 const Eigen::RowVectorXd& b) {
    const Eigen::Index n = b.size();
    for (Eigen::Index i = 0; i < a.size(); ++i) start.segment(offset + i * n, n) += a(i) * b;
  };

  for (int level = 0; level <= capacity; ++level) {
    const RowMajorMap view(p.data() + space.level_offset(level), w, space.level_size(level) / w);
    const ArrivalRows& rows = arrivals.at_level(level);
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(rows.phases());
    const Eigen::VectorXd by_arrival_phase = view.rowwise().sum();
    // Every batch size's rates, so that one pass over the level gives each size's weights over
    // (server, clocks): a pass per size read the level's probabilities as many times.
    Eigen::MatrixXd batch_rates(w, rows.max_batch());
    for (int k = 1; k <= rows.max_batch(); ++k) batch_rates.col(k - 1) = rows.d_k(k) * ones;
    const Eigen::MatrixXd rests = batch_rates.transpose() * view;
    // Position l of a batch of k is taken with probability 1/k; the page rate is k times the batch
    // rate, so each position of each batch carries the batch rate.
    for (int k = 1; k <= rows.max_batch(); ++k) {
      offered += k * by_arrival_phase.dot(batch_rates.col(k - 1));
      const int admitted = model::accepted_pages(model.admission, level, capacity, k);
      if (admitted == 0) continue;
      const Eigen::RowVectorXd rest = rests.row(k - 1);  // over (server, clocks)
      for (int position = 1; position <= admitted; ++position) {
        if (level == 0) {
          const double weight = rest(0);
          if (position == 1)
            start.head(service_phases_) += weight * beta_;
          else
            add_kron(waiting_offset(position - 2), weight * beta_, gamma_powers_[position - 1]);
        } else {
          add_kron(waiting_offset((level - 1) + (position - 1)), rest, gamma_powers_[position]);
        }
      }
    }
  }
  return offered;
}

Eigen::VectorXd TaggedPageChain::arrival_gradient(const model::Model& model,
                                                  const ControlledArrivals& arrivals,
                                                  const StateSpace& space,
                                                  const Eigen::VectorXd& m) const {
  const int capacity = model.capacity;
  const Eigen::Index w = space.arrival_phases();
  Eigen::VectorXd gradient = Eigen::VectorXd::Zero(space.size());
  // m's block with `ahead` pages ahead as (server, clocks ahead but the last `fresh`) x (the last
  // `fresh` clocks), times gamma^(x)fresh: what a page placed there with `fresh` new clocks is
  // worth for each phase of the rest.
  const auto placed = [&](int ahead, int fresh) -> Eigen::VectorXd {
    const Eigen::RowVectorXd& clocks = gamma_powers_[static_cast<std::size_t>(fresh)];
    const Eigen::Index rows = operator_.block_size(ahead) / clocks.size();
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
        block(m.data() + waiting_offset(ahead), rows, clocks.size());
    return block * clocks.transpose();
  };
  for (int level = 0; level <= capacity; ++level) {
    const Eigen::Index rest = space.level_size(level) / w;
    const ArrivalRows& rows = arrivals.at_level(level);
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(rows.phases());
    Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> view(
        gradient.data() + space.level_offset(level), w, rest);
    for (int k = 1; k <= rows.max_batch(); ++k) {
      const int admitted = model::accepted_pages(model.admission, level, capacity, k);
      if (admitted == 0) continue;
      // The worth of the batch's pages for each phase of the rest (server, clocks).
      Eigen::VectorXd worth = Eigen::VectorXd::Zero(rest);
      for (int position = 1; position <= admitted; ++position) {
        if (level == 0) {
          worth(0) += position == 1 ? beta_.dot(m.head(service_phases_))
                                    : beta_.dot(placed(position - 2, position - 1));
        } else {
          worth += placed((level - 1) + (position - 1), position);
        }
      }
      view += (rows.d_k(k) * ones) * worth.transpose();
    }
  }
  return gradient;
}

}  // namespace crawlq::analytic
