#include "analytic/stationary/full_state_chain.hpp"

#include <fmt/format.h>

#include <Eigen/SparseLU>
#include <algorithm>
#include <chrono>

#include "analytic/parallel_for.hpp"
#include "analytic/stationary/parallel_bicgstab.hpp"
#include "analytic/stationary/pinned_system.hpp"
#include "model/admission.hpp"

namespace crawlq::analytic {

namespace {
// Up to this size a sparse LU costs milliseconds and needs no convergence; beyond, the factors of
// a chain with waiting clocks fill in (sparse_lu_solver.hpp) and BiCGSTAB is far cheaper.
constexpr Eigen::Index kDirectStates = 3000;
constexpr double kTolerance = 1e-14;
constexpr int kMaxIterations = 20000;
}  // namespace

namespace {

// y = A x, row by row: each row summed in its storage order, so any split of the rows gives the
// same bits. Rows are handed out in pieces, so that a descheduled thread holds up one piece.
void multiply_by_rows(const SparseMatrix& a, const double* x, double* y, int threads) {
  const Eigen::Index n = a.rows();
  const auto* outer = a.outerIndexPtr();
  const auto* inner = a.innerIndexPtr();
  const double* values = a.valuePtr();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096) if (threads > 1)
  for (Eigen::Index i = 0; i < n; ++i) {
    double sum = 0;
    for (auto k = outer[i]; k < outer[i + 1]; ++k) sum += values[k] * x[inner[k]];
    y[i] = sum;
  }
}

SparseSolution solve_directly(const SparseMatrix& a, const Eigen::VectorXd& b) {
  SparseSolution s;
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.compute(Eigen::SparseMatrix<double>(a));
  if (lu.info() != Eigen::Success) {
    s.message = "sparse LU: the matrix is singular";
    return s;
  }
  s.x = lu.solve(b);
  s.solved = s.x.allFinite();
  s.iterations = 1;
  if (!s.solved) s.message = "sparse LU: the solution is not finite";
  return s;
}

}  // namespace

SparseSolution solve_sparse(const SparseMatrix& a, const Eigen::VectorXd& b,
                            const SparseSolveOptions& options) {
  if (a.rows() <= kDirectStates) return solve_directly(a, b);
  SparseSolution s;
  const int threads = std::max(1, options.threads);
  SparseMatrix compressed;
  const SparseMatrix* rows = &a;
  if (!a.isCompressed()) {
    compressed = a;
    compressed.makeCompressed();
    rows = &compressed;
  }
  // A zero on the diagonal is left unscaled, as Eigen's diagonal preconditioner does.
  Eigen::VectorXd inverse_diagonal = a.diagonal();
  for (double& d : inverse_diagonal) d = d != 0 ? 1 / d : 1;
  s.x = options.guess && options.guess->size() == b.size() ? *options.guess
                                                           : Eigen::VectorXd::Zero(b.size());
  const KrylovSummary krylov =
      parallel_bicgstab([&](const double* x, double* y,
                            int threads_now) { multiply_by_rows(*rows, x, y, threads_now); },
                        inverse_diagonal, b, s.x,
                        {.tolerance = kTolerance,
                         .max_iterations = kMaxIterations,
                         .threads = threads,
                         .stop = options.stop});
  s.iterations = krylov.iterations;
  s.solved = krylov.converged && s.x.allFinite();
  if (krylov.cancelled)
    s.message = "cancelled";
  else if (!s.solved)
    s.message = fmt::format("BiCGSTAB stopped after {} iterations at relative residual {:.3g}",
                            s.iterations, krylov.relative_residual);
  return s;
}

FullStateChain::FullStateChain(const model::Model& model, int threads)
    : model_(model), space_(model) {
  model_.policy.reset();
  const int n = model.modes();
  constant_.resize(static_cast<std::size_t>(n));
  parallel_for(constant_.size(), threads, [&](std::size_t i) {
    const int r = static_cast<int>(i) + 1;
    constant_[i] =
        GeneratorBlocks(model_, model::Policy::constant(r, n, model.capacity)).assemble();
  });

  const Eigen::Index size = space_.size();
  const Eigen::VectorXd service_exit = model.service.exit_rates();
  const Eigen::VectorXd clock_exit = model.obsolescence
                                         ? Eigen::VectorXd(model.obsolescence->exit_rates())
                                         : Eigen::VectorXd::Zero(1);
  served_ = Eigen::VectorXd::Zero(size);
  expired_ = Eigen::VectorXd::Zero(size);
  offered_.assign(n, Eigen::VectorXd::Zero(size));
  lost_.assign(n, Eigen::VectorXd::Zero(size));
  // Per mode, per level and arrival phase: batch rates by size, from D_k's row sums.
  for (Eigen::Index x = 0; x < size; ++x) {
    const StateSpace::State s = space_.state(x);
    if (s.level >= 1) served_(x) = service_exit(s.service_phase);
    for (const int c : s.clock_phases) expired_(x) += clock_exit(c);
    for (int r = 1; r <= n; ++r) {
      const model::Bmap& bmap = model.arrivals.mode(r);
      for (int k = 1; k <= bmap.max_batch(); ++k) {
        const double rate = bmap.d(k).row(s.arrival_phase).sum();
        offered_[r - 1](x) += k * rate;
        lost_[r - 1](x) +=
            (k - model::accepted_pages(model.admission, s.level, model.capacity, k)) * rate;
      }
    }
  }
  const model::Costs& c = model.costs;
  Eigen::VectorXd every_mode = c.obsolescence * expired_ + per_page(c.holding);
  every_mode.head(space_.level_size(0)).array() += c.starvation;
  for (int r = 1; r <= n; ++r)
    cost_rate_.push_back((c.loss * lost_[r - 1] + every_mode).array() + c.robot * r);
}

Eigen::VectorXd FullStateChain::per_page(double weight) const {
  Eigen::VectorXd rate(size());
  for (int level = 0; level <= space_.capacity(); ++level)
    rate.segment(space_.level_offset(level), space_.level_size(level)).setConstant(weight * level);
  return rate;
}

SparseMatrix FullStateChain::generator(const std::vector<int>& robots) const {
  const Eigen::Index size = space_.size();
  Eigen::Index entries = 0;
  for (const auto& q : constant_) entries = std::max<Eigen::Index>(entries, q.nonZeros());
  SparseMatrix q(size, size);
  q.reserve(entries);
  for (Eigen::Index x = 0; x < size; ++x) {
    const SparseMatrix& from =
        constant_[static_cast<std::size_t>(robots[static_cast<std::size_t>(x)] - 1)];
    q.startVec(x);
    for (SparseMatrix::InnerIterator it(from, x); it; ++it) q.insertBack(x, it.col()) = it.value();
  }
  q.finalize();
  return q;
}

Eigen::VectorXd FullStateChain::cost_rate(const std::vector<int>& robots) const {
  Eigen::VectorXd rate(size());
  for (Eigen::Index x = 0; x < size(); ++x)
    rate(x) = cost_rate(robots[static_cast<std::size_t>(x)])(x);
  return rate;
}

StationaryResult FullStateChain::stationary(const std::vector<int>& robots,
                                            const Eigen::VectorXd* warm,
                                            const std::atomic<bool>* stop, int threads) const {
  const auto start = std::chrono::steady_clock::now();
  // The empty system in arrival phase 0 is pinned (every robot's arrival process reaches each of
  // its phases), or the warm start's likeliest state.
  Eigen::Index pinned = 0;
  if (warm && warm->size() == size()) warm->maxCoeff(&pinned);
  const SparseMatrix q = generator(robots);
  const PinnedSystem system = pin_state(q, pinned);
  Eigen::VectorXd guess;
  if (warm && warm->size() == size()) {
    guess.resize(size() - 1);
    for (Eigen::Index i = 0, j = 0; i < size(); ++i)
      if (i != pinned) guess(j++) = (*warm)(i) / (*warm)(pinned);
  }
  // By rows for the solver: each row of Q^T is then one product's sum, shared among threads.
  const SparseSolution s =
      solve_sparse(SparseMatrix(system.matrix), system.rhs,
                   {.guess = guess.size() ? &guess : nullptr, .stop = stop, .threads = threads});
  StationaryResult result;
  StationarySummary& summary = result.summary;
  summary.method = s.iterations > 1 ? Method::kIterative : Method::kSparseLu;
  summary.iterations = s.iterations;
  summary.message = s.message;
  if (s.solved) {
    result.probabilities = unpin(s.x, pinned);
    summary.status = SolverStatus::kConverged;
    if (accept_stationary(result.probabilities, summary))
      summary.residual = (result.probabilities.transpose() * q).lpNorm<1>();
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

Measures FullStateChain::measures(const std::vector<int>& robots, const Eigen::VectorXd& p) const {
  Measures m;
  m.level_probabilities.assign(model_.capacity + 1, 0.0);
  m.mode_probabilities.assign(modes(), 0.0);
  double offered = 0, lost = 0;
  for (int level = 0; level <= model_.capacity; ++level) {
    const Eigen::Index first = space_.level_offset(level);
    for (Eigen::Index x = first; x < first + space_.level_size(level); ++x) {
      const int r = robots[static_cast<std::size_t>(x)];
      offered += p(x) * offered_[r - 1](x);
      lost += p(x) * lost_[r - 1](x);
      m.level_probabilities[level] += p(x);
      m.mode_probabilities[r - 1] += p(x);
      m.mean_active_robots += r * p(x);
    }
    m.mean_in_system += level * m.level_probabilities[level];
    m.mean_in_queue += std::max(level - 1, 0) * m.level_probabilities[level];
  }
  m.lambda = offered;
  m.p_loss = lost / offered;
  m.p_obsolete = p.dot(expired_) / offered;
  m.p_served = p.dot(served_) / offered;
  m.p_starvation = m.level_probabilities[0];
  return m;
}

std::vector<int> FullStateChain::robots_of(const model::Policy& levels) const {
  std::vector<int> robots(static_cast<std::size_t>(size()));
  for (int level = 0; level <= model_.capacity; ++level)
    std::fill_n(robots.begin() + space_.level_offset(level), space_.level_size(level),
                levels.robots(level));
  return robots;
}

std::vector<int> FullStateChain::robots_of(const model::PhaseAwarePolicy& table) const {
  std::vector<int> robots(static_cast<std::size_t>(size()));
  const Eigen::Index w = space_.arrival_phases();
  for (int level = 0; level <= model_.capacity; ++level) {
    const Eigen::Index per_phase = space_.level_size(level) / w;
    for (Eigen::Index nu = 0; nu < w; ++nu)
      std::fill_n(robots.begin() + space_.level_offset(level) + nu * per_phase, per_phase,
                  table.robots[static_cast<std::size_t>(level)][static_cast<std::size_t>(nu)]);
  }
  return robots;
}

}  // namespace crawlq::analytic
