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

// Row by row from the model's rules (the tagged page with j pages ahead: the server's phase, the
// clocks of those j pages from the head, its own clock last): each row's entries in column order,
// so T is built once, by rows, with no triplets and no sort of the whole. The blocks are those of
// the Lemma: the in-service block S; A_{j+1} = S (+) Gamma^(+)(j+1) on the diagonal; beside it
// B_j (x) I_R (the head served, or a page ahead expiring), or S_0 beta (x) e_R with nobody ahead.
class RowAssembler {
 public:
  RowAssembler(const model::Model& model, Eigen::Index size, Eigen::Index reserve)
      : s_(model.service.subgenerator()),
        s0_(model.service.exit_rates()),
        beta_(model.service.initial()),
        gamma_(model.obsolescence ? Eigen::MatrixXd(model.obsolescence->subgenerator()) : Eigen::MatrixXd::Zero(1, 1)),
        gamma0_(model.obsolescence ? Eigen::VectorXd(model.obsolescence->exit_rates()) : Eigen::VectorXd::Zero(1)),
        r_(static_cast<int>(gamma_.rows())),
        t_(size, size) {
    t_.reserve(reserve);
  }

  void in_service_rows() {
    for (int s = 0; s < s_.rows(); ++s) {
      for (int to = 0; to < s_.cols(); ++to) add(to, s_(s, to));
      flush();
    }
  }

  // The rows of the block with `ahead` pages ahead, at `row0`; `left0` is where the block it moves
  // into starts (0: in service).
  void waiting_rows(int ahead, Eigen::Index row0, Eigen::Index left0) {
    const int clocks = ahead + 1;
    Eigen::Index per_server = 1;
    for (int c = 0; c < clocks; ++c) per_server *= r_;
    std::vector<int> c(clocks, 0);  // clock phases, head first, own last
    for (int s = 0; s < s_.rows(); ++s)
      for (Eigen::Index rest = 0; rest < per_server; ++rest) {
        Eigen::Index code = rest;
        for (int k = clocks - 1; k >= 0; --k) {
          c[k] = static_cast<int>(code % r_);
          code /= r_;
        }
        const Eigen::Index row = row0 + s * per_server + rest;
        // Moving up: service ends (the head enters service with beta; with nobody ahead, the tagged
        // page does and its clock goes), or a page ahead expires.
        const Eigen::Index below = per_server / r_;  // clock combinations one page fewer
        if (ahead == 0) {
          for (int to = 0; to < s_.rows(); ++to) add(left0 + to, s0_(s) * beta_(to));
        } else {
          const Eigen::Index without_head = rest % below;  // the clocks after the head
          for (int to = 0; to < s_.rows(); ++to) add(left0 + to * below + without_head, s0_(s) * beta_(to));
          for (int k = 0; k < ahead; ++k) add(left0 + s * below + without(c, k), gamma0_(c[k]));
        }
        // Within the block: the server moves, a clock moves.
        for (int to = 0; to < s_.cols(); ++to) add(row0 + to * per_server + rest, s_(s, to));
        double clock_diagonal = 0;
        Eigen::Index weight = per_server;
        for (int k = 0; k < clocks; ++k) {
          weight /= r_;
          clock_diagonal += gamma_(c[k], c[k]);
          for (int to = 0; to < r_; ++to)
            if (to != c[k]) add(row - (c[k] - to) * weight, gamma_(c[k], to));
        }
        add(row, clock_diagonal);
        flush();
      }
  }

  Eigen::SparseMatrix<double, Eigen::RowMajor> finish() {
    t_.finalize();
    t_.makeCompressed();
    return std::move(t_);
  }

 private:
  // The index among `below` combinations of the clocks without clock k.
  Eigen::Index without(const std::vector<int>& c, int k) const {
    Eigen::Index code = 0;
    for (int i = 0; i < static_cast<int>(c.size()); ++i)
      if (i != k) code = code * r_ + c[i];
    return code;
  }
  void add(Eigen::Index col, double value) {
    if (value != 0) row_.emplace_back(col, value);
  }
  // Sorted, equal columns summed (the head served into the server's own phase and the head
  // expiring land on the same state).
  void flush() {
    std::sort(row_.begin(), row_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const Eigen::Index r = next_row_++;
    t_.startVec(r);
    for (std::size_t i = 0; i < row_.size();) {
      double sum = 0;
      const Eigen::Index col = row_[i].first;
      for (; i < row_.size() && row_[i].first == col; ++i) sum += row_[i].second;
      t_.insertBack(r, col) = sum;
    }
    row_.clear();
  }

  Eigen::MatrixXd s_;
  Eigen::VectorXd s0_;
  Eigen::RowVectorXd beta_;
  Eigen::MatrixXd gamma_;
  Eigen::VectorXd gamma0_;
  int r_;
  Eigen::SparseMatrix<double, Eigen::RowMajor> t_;
  std::vector<std::pair<Eigen::Index, double>> row_;
  Eigen::Index next_row_ = 0;
};

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

  served_exit_ = Eigen::VectorXd::Zero(size_);
  obsolete_exit_ = Eigen::VectorXd::Zero(size_);
  served_exit_.head(m) = Eigen::VectorXd(terms.s0());
  // At most, a row with j pages ahead holds the server's M moves, each of the j+1 clocks' R-1, the
  // head served into M phases and j expiries.
  Eigen::Index entries = static_cast<Eigen::Index>(m) * m;
  for (int ahead = 0; ahead <= max_pages_ahead(); ++ahead) {
    const Eigen::Index block = (ahead + 1 <= max_pages_ahead() ? waiting_offset(ahead + 1) : size_) - waiting_offset(ahead);
    entries += block * (2 * m + (ahead + 1) * (clock_phases_ - 1) + ahead + 1);
  }
  RowAssembler rows(model, size_, entries);
  rows.in_service_rows();
  const Eigen::VectorXd own_exit =
      model.obsolescence ? Eigen::VectorXd(model.obsolescence->exit_rates()) : Eigen::VectorXd::Zero(1);
  for (int ahead = 0; ahead <= max_pages_ahead(); ++ahead) {
    const Eigen::Index row0 = waiting_offset(ahead);
    rows.waiting_rows(ahead, row0, ahead == 0 ? 0 : waiting_offset(ahead - 1));
    // Its own clock (the last) expiring ends the journey as obsolete.
    const Eigen::Index block = (ahead + 1 <= max_pages_ahead() ? waiting_offset(ahead + 1) : size_) - row0;
    for (Eigen::Index i = 0; i < block; ++i) obsolete_exit_(row0 + i) = own_exit(i % clock_phases_);
  }
  t_ = rows.finish();
  accepted_exit_ = served_exit_ + obsolete_exit_;
  for (const Sparse& power : terms.gamma_powers(model.capacity)) gamma_powers_.push_back(Eigen::MatrixXd(power));
  for (Eigen::Index i = 0; i < size_; ++i) max_exit_rate_ = std::max(max_exit_rate_, -t_.coeff(i, i));

  // -T is block lower-triangular in the pages ahead: a tagged page is served (block 0, in service)
  // after it waits with 0 pages ahead, and so on; nothing after it overtakes it. So (-T) x = t is
  // solved block by block from the server outwards, each diagonal block directly (DiagonalBlockSolver;
  // the whole chain at once fills in a sparse factorisation, and makes a Krylov method carry the
  // coupling across K blocks).
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
      diagonal.push_back(std::make_unique<DiagonalBlockSolver>(
          Eigen::SparseMatrix<double>(-t_.block(starts[b], starts[b], n, n))));
    else
      diagonal.push_back(std::make_unique<DiagonalBlockSolver>(service, clock, static_cast<int>(b)));
  }
  const auto solve = [&](const Eigen::VectorXd& rhs) {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(size_);
    for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
      const Eigen::Index from = starts[b], n = starts[b + 1] - from;
      // The blocks not yet solved hold zeros, so this is t_b - sum over solved blocks c of A_bc x_c.
      const Eigen::VectorXd right = rhs.segment(from, n) + t_.middleRows(from, n) * x;
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

Eigen::RowVectorXd TaggedPageChain::left_multiply(const Eigen::RowVectorXd& x) const {
  Eigen::RowVectorXd y = Eigen::RowVectorXd::Zero(t_.cols());
  for (Eigen::Index r = 0; r < t_.outerSize(); ++r) {
    const double weight = x(r);
    if (weight == 0) continue;
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(t_, r); it; ++it)
      y(it.col()) += weight * it.value();
  }
  return y;
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
