#include "analytic/controlled_arrivals.hpp"
#include "analytic/tagged_page_chain.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <Eigen/SparseLU>
#include <stdexcept>
#include <thread>

#include "model/admission.hpp"
#include "analytic/kronecker_sum_solver.hpp"
#include "analytic/kronecker_terms.hpp"

namespace crawlq::analytic {

namespace {

// One diagonal block of -T, factorised once for the six solves of the moments. The in-service block
// and small waiting blocks by sparse LU; a waiting block with j pages ahead is -(S (+) Gamma^(+)(j+1))
// (the server, their clocks and its own), solved directly through Schur forms beyond a few hundred
// states (kronecker_sum_solver.hpp). Both are only read when solving, so two threads may share them.
class DiagonalBlockSolver {
 public:
  explicit DiagonalBlockSolver(const Eigen::SparseMatrix<double>& a) {
    lu_.compute(a);
    if (lu_.info() != Eigen::Success)
      throw std::runtime_error("tagged-page chain: a block of -T is singular: " + lu_.lastErrorMessage());
  }
  DiagonalBlockSolver(const Eigen::MatrixXd& service, const Eigen::MatrixXd& clock, int clocks)
      : kronecker_(std::make_unique<KroneckerSumSolver>(service, clock, clocks)) {}
  Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const {
    return kronecker_ ? kronecker_->solve(rhs) : Eigen::VectorXd(lu_.solve(rhs));
  }

 private:
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu_;
  std::unique_ptr<KroneckerSumSolver> kronecker_;
};

// Below this many states a waiting block is factorised by sparse LU (which the brute-force
// crosscheck's small models then exercise beside the Schur path above it).
constexpr Eigen::Index kLargestSparseLuBlock = 64;

}  // namespace

namespace {
void place(std::vector<Eigen::Triplet<double>>& entries, const Sparse& block, Eigen::Index row0,
           Eigen::Index col0) {
  for (Eigen::Index c = 0; c < block.outerSize(); ++c)
    for (Sparse::InnerIterator it(block, c); it; ++it)
      entries.emplace_back(row0 + it.row(), col0 + it.col(), it.value());
}
}  // namespace

TaggedPageChain::TaggedPageChain(const model::Model& model)
    : beta_(model.service.initial()),
      gamma_(model.obsolescence ? model.obsolescence->initial() : model::RowVector::Ones(1)),
      service_phases_(model.service.phases()),
      clock_phases_(static_cast<int>(gamma_.size())) {
  const KroneckerTerms terms(model.service, model.obsolescence ? &*model.obsolescence : nullptr);
  const int m = service_phases_;
  size_ = m;
  // While waiting with j pages ahead the tagged page sees j+1 clocks: theirs and its own (last).
  for (int ahead = 0; ahead + 2 <= model.capacity; ++ahead) {
    waiting_offsets_.push_back(size_);
    Eigen::Index block = m;
    for (int c = 0; c <= ahead; ++c) block *= clock_phases_;
    size_ += block;
  }

  std::vector<Eigen::Triplet<double>> entries;
  served_exit_ = Eigen::VectorXd::Zero(size_);
  obsolete_exit_ = Eigen::VectorXd::Zero(size_);
  place(entries, terms.s(), 0, 0);
  served_exit_.head(m) = Eigen::VectorXd(terms.s0());
  for (int ahead = 0; ahead <= max_pages_ahead(); ++ahead) {
    const Eigen::Index row0 = waiting_offset(ahead);
    const int clocks = ahead + 1;
    place(entries, terms.a(clocks), row0, row0);  // A_{j+1}
    // Service completion or a page ahead expiring moves the tagged page up: B-hat_j = B_j (x) I_R;
    // with nobody ahead, completion puts the tagged page into service and drops its clock.
    const Eigen::Index col0 = ahead == 0 ? 0 : waiting_offset(ahead - 1);
    if (ahead == 0)
      place(entries, kron(terms.s0_beta(), terms.e_r()), row0, col0);
    else
      place(entries, kron(terms.b(ahead), identity(clock_phases_)), row0, col0);
    // Its own clock (the last) expiring ends the journey as obsolete.
    const Eigen::Index block = terms.a(clocks).rows();
    const Eigen::VectorXd own = Eigen::VectorXd(kron(identity(block / clock_phases_),
                                                     to_sparse(Eigen::VectorXd(
                                                         model.obsolescence
                                                             ? model.obsolescence->exit_rates()
                                                             : Eigen::VectorXd::Zero(1)))) *
                                                Eigen::VectorXd::Ones(block / clock_phases_));
    obsolete_exit_.segment(row0, block) = own;
  }
  t_.resize(size_, size_);
  t_.setFromTriplets(entries.begin(), entries.end());
  t_.makeCompressed();
  accepted_exit_ = served_exit_ + obsolete_exit_;
  for (const Sparse& power : terms.gamma_powers(model.capacity)) gamma_powers_.push_back(Eigen::MatrixXd(power));
  for (Eigen::Index i = 0; i < size_; ++i)
    max_exit_rate_ = std::max(max_exit_rate_, -t_.coeff(i, i));

  // -T is block lower-triangular in the pages ahead: a tagged page is served (block 0, in service)
  // after it waits with 0 pages ahead, and so on; nothing after it overtakes it. So (-T) x = t is
  // solved block by block from the server outwards, each diagonal block directly (DiagonalBlockSolver;
  // the whole chain at once fills in a sparse factorisation, and makes a Krylov method carry the
  // coupling across K blocks).
  const Eigen::SparseMatrix<double, Eigen::RowMajor> minus_t = -t_;
  std::vector<Eigen::Index> starts{0};
  for (Eigen::Index offset : waiting_offsets_) starts.push_back(offset);
  starts.push_back(size_);
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  std::vector<std::unique_ptr<DiagonalBlockSolver>> diagonal;
  const Eigen::MatrixXd service = model.service.subgenerator();
  const Eigen::MatrixXd clock =
      model.obsolescence ? Eigen::MatrixXd(model.obsolescence->subgenerator()) : Eigen::MatrixXd::Zero(1, 1);
  for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
    const Eigen::Index n = starts[b + 1] - starts[b];
    if (b == 0 || n <= kLargestSparseLuBlock)
      diagonal.push_back(std::make_unique<DiagonalBlockSolver>(minus_t.block(starts[b], starts[b], n, n)));
    else
      diagonal.push_back(std::make_unique<DiagonalBlockSolver>(service, clock, static_cast<int>(b)));
  }
  const auto solve = [&](const Eigen::VectorXd& rhs) {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(size_);
    for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
      const Eigen::Index from = starts[b], n = starts[b + 1] - from;
      // The blocks not yet solved hold zeros, so this is t_b - sum over solved blocks c of A_bc x_c.
      const Eigen::VectorXd right = rhs.segment(from, n) - minus_t.middleRows(from, n) * x;
      x.segment(from, n) = diagonal[b]->solve(right);
    }
    return x;
  };
  // The two fates are independent chains of solves: one thread each (the factorisations are only
  // read), and each vector is computed the same way whichever thread does it.
  const auto moments_of = [&](PageFate fate) {
    const int f = static_cast<int>(fate);
    Eigen::VectorXd x = exit(fate);
    for (int k = 0; k < 3; ++k) moments_[f][k] = x = solve(x);
  };
  std::exception_ptr obsolete_failure;
  std::thread obsolete([&] {
    try {
      moments_of(PageFate::kObsolete);
    } catch (...) {
      obsolete_failure = std::current_exception();
    }
  });
  try {
    moments_of(PageFate::kServed);
  } catch (...) {
    obsolete.join();
    throw;
  }
  obsolete.join();
  if (obsolete_failure) std::rethrow_exception(obsolete_failure);
  for (int k = 0; k < 3; ++k)
    moments_[static_cast<int>(PageFate::kAccepted)][k] =
        moments_[static_cast<int>(PageFate::kServed)][k] +
        moments_[static_cast<int>(PageFate::kObsolete)][k];
}

const Eigen::VectorXd& TaggedPageChain::exit(PageFate fate) const {
  switch (fate) {
    case PageFate::kServed: return served_exit_;
    case PageFate::kObsolete: return obsolete_exit_;
    case PageFate::kAccepted: break;
  }
  return accepted_exit_;
}

const Eigen::VectorXd& TaggedPageChain::moment_vector(PageFate fate, int k) const {
  return moments_[static_cast<int>(fate)][k];
}

Eigen::RowVectorXd TaggedPageChain::arrival_distribution(const model::Model& model,
                                                         const ControlledArrivals& arrivals,
                                                         const StateSpace& space,
                                                         const Eigen::VectorXd& p) const {
  Eigen::RowVectorXd start = Eigen::RowVectorXd::Zero(size_);
  const double offered = add_arrivals(model, arrivals, space, p, start);
  return start / offered;
}

Eigen::RowVectorXd TaggedPageChain::arrival_distribution(const model::Model& model, const std::vector<int>& robots,
                                                         const StateSpace& space,
                                                         const Eigen::VectorXd& p) const {
  // Each state's arrivals are those of its own mode: the states of each mode in turn.
  Eigen::RowVectorXd start = Eigen::RowVectorXd::Zero(size_);
  double offered = 0;
  for (int r = 1; r <= model.modes(); ++r) {
    Eigen::VectorXd share = Eigen::VectorXd::Zero(p.size());
    for (Eigen::Index x = 0; x < p.size(); ++x)
      if (robots[static_cast<std::size_t>(x)] == r) share(x) = p(x);
    if (share.isZero(0)) continue;
    offered += add_arrivals(model, ControlledArrivals(model, model::Policy::constant(r, model.modes(), model.capacity)),
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
  const auto kron_row = [](const Eigen::RowVectorXd& a, const Eigen::RowVectorXd& b) -> Eigen::RowVectorXd {
    return model::kron(a, b);
  };

  for (int level = 0; level <= capacity; ++level) {
    const RowMajorMap view(p.data() + space.level_offset(level), w, space.level_size(level) / w);
    const ArrivalRows& rows = arrivals.at_level(level);
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(rows.phases());
    const Eigen::VectorXd by_arrival_phase = view.rowwise().sum();
    // Position l of a batch of k is taken with probability 1/k; the page rate is k times the batch
    // rate, so each position of each batch carries the batch rate.
    for (int k = 1; k <= rows.max_batch(); ++k) {
      const Eigen::VectorXd batch_rate = rows.d_k(k) * ones;
      offered += k * by_arrival_phase.dot(batch_rate);
      const int admitted = model::accepted_pages(model.admission, level, capacity, k);
      if (admitted == 0) continue;
      const Eigen::RowVectorXd rest = batch_rate.transpose() * view;  // over (server, clocks)
      for (int position = 1; position <= admitted; ++position) {
        if (level == 0) {
          const double weight = rest(0);
          if (position == 1) {
            start.head(service_phases_) += weight * beta_;
          } else {
            const int ahead = position - 2;
            const Eigen::RowVectorXd entry = kron_row(weight * beta_, gamma_powers_[position - 1]);
            start.segment(waiting_offset(ahead), entry.size()) += entry;
          }
        } else {
          const int ahead = (level - 1) + (position - 1);
          const Eigen::RowVectorXd entry = kron_row(rest, gamma_powers_[position]);
          start.segment(waiting_offset(ahead), entry.size()) += entry;
        }
      }
    }
  }
  return offered;
}

}  // namespace crawlq::analytic
