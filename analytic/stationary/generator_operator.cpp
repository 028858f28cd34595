#include "analytic/stationary/generator_operator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "analytic/stationary/clock_kernel.hpp"
#include "analytic/stationary/controlled_arrivals.hpp"
#include "analytic/stationary/kronecker_terms.hpp"
#include "model/admission.hpp"

namespace crawlq::analytic {

namespace {

using Index = Eigen::Index;

// Below this many states an operator application is not worth waking a second thread for.
constexpr Index kParallelGrain = Index{1} << 14;
// A level's blocks split into at most this many pieces each, of at least this many states.
constexpr Index kMostPieces = 16;
constexpr Index kSmallestPiece = Index{1} << 9;
// Levels this large on average are shared piece by piece, one level at a time.
constexpr Index kSmallestLevelShared = Index{1} << 12;
// The last clocks' sums of Gamma(c, c) in a table of at most this many entries, in cache while a
// pass adds them to the rest of each entry's diagonal.
constexpr Index kDiagonalRun = 256;

// Gamma(c, c) summed over `clocks` clocks, for every combination in order (the first clock the
// most significant, and the first added).
std::vector<double> clock_sums(const Eigen::MatrixXd& gamma, int clocks) {
  const auto r = static_cast<std::size_t>(gamma.rows());
  std::vector<double> sums{0.0};
  for (int k = 0; k < clocks; ++k) {
    std::vector<double> longer(sums.size() * r);
    for (std::size_t c = 0; c < longer.size(); ++c)
      longer[c] = sums[c / r] + gamma(static_cast<Index>(c % r), static_cast<Index>(c % r));
    sums = std::move(longer);
  }
  return sums;
}

}  // namespace

GeneratorOperator::GeneratorOperator(const model::Model& model, const ControlledArrivals& arrivals)
    : arrivals_(arrivals),
      space_(model, arrivals.phases()),
      w_(space_.arrival_phases()),
      m_(space_.service_phases()),
      r_(space_.clock_phases()) {
  const int capacity = model.capacity;
  service_ = model.service.subgenerator();
  service_exit_ = model.service.exit_rates();
  service_start_ = model.service.initial().transpose();
  if (model.obsolescence) {
    clock_ = model.obsolescence->subgenerator();
    clock_exit_ = model.obsolescence->exit_rates();
    new_clocks_.push_back(Eigen::VectorXd::Ones(1));
    const Eigen::RowVectorXd gamma = model.obsolescence->initial();
    for (int a = 1; a <= capacity; ++a) {
      const Eigen::VectorXd& previous = new_clocks_.back();
      Eigen::VectorXd next(previous.size() * r_);
      for (Index i = 0; i < previous.size(); ++i)
        next.segment(i * r_, r_) = previous(i) * gamma.transpose();
      new_clocks_.push_back(std::move(next));
    }
  } else {
    clock_ = Eigen::MatrixXd::Zero(1, 1);
    clock_exit_ = Eigen::VectorXd::Zero(1);
    new_clocks_.assign(capacity + 1, Eigen::VectorXd::Ones(1));
  }

  for (int level = 0; level <= capacity; ++level) {
    const ArrivalRows& rows = arrivals.at_level(level);
    std::vector<Eigen::MatrixXd> grouped = arrivals.by_admitted(level);
    // D_0 and the batches lost whole, summed in batch order (as the snapshots of solve were taken).
    Eigen::MatrixXd stay = rows.d_k(0);
    for (int k = 1; k <= rows.max_batch(); ++k)
      if (model::accepted_pages(model.admission, level, capacity, k) == 0) stay += rows.d_k(k);
    longest_batch_ = std::max(longest_batch_, rows.max_batch());
    build_diagonal(level, stay);
    Level l;
    l.admitting.assign(std::make_move_iterator(grouped.begin() + 1),
                       std::make_move_iterator(grouped.end()));
    l.stay_off_diagonal = std::move(stay);
    l.stay_off_diagonal.diagonal().setZero();
    levels_.push_back(std::move(l));
  }
}

// diag(Q) = D(w, w) + S(s, s) + the waiting clocks' sum of Gamma(c_k, c_k).
void GeneratorOperator::build_diagonal(int level, const Eigen::MatrixXd& stay) {
  LevelDiagonal& d = diagonals_.emplace_back();
  if (level == 0) {
    for (int a = 0; a < w_; ++a) d.blocks.push_back(stay(a, a));
    d.split = d.high = d.low = {0.0};
    return;
  }
  for (int a = 0; a < w_; ++a)
    for (int s = 0; s < m_; ++s) d.blocks.push_back(stay(a, a) + service_(s, s));
  if (r_ == 1) {
    // One phase: the waiting clocks are one combination, their sum one more term than a level
    // below (summed afresh, a long buffer would cost K^2).
    d.split = d.high = {0.0};
    d.low = {level == 1 ? 0.0
                        : diagonals_[static_cast<std::size_t>(level - 1)].low[0] + clock_(0, 0)};
    return;
  }
  const int split = split_clocks(level), rest = level - 1 - split;
  int last = 0;
  while (last < rest && power(r_, last + 1) <= kDiagonalRun) ++last;
  d.split = clock_sums(clock_, split);
  d.high = clock_sums(clock_, rest - last);
  d.low = clock_sums(clock_, last);
}

GeneratorOperator::DiagonalPiece GeneratorOperator::diagonal_piece(int level, int block,
                                                                   Index piece) const {
  const LevelDiagonal& d = diagonals_[static_cast<std::size_t>(level)];
  return {
      .base = d.blocks[static_cast<std::size_t>(block)] + d.split[static_cast<std::size_t>(piece)],
      .high = d.high.data(),
      .low = d.low.data(),
      .run = static_cast<Index>(d.low.size())};
}

template <typename Body>
void GeneratorOperator::for_level_diagonal(int level, Body&& body) const {
  const Index clocks = space_.level_size(level) / (w_ * m_);
  for (int block = 0; block < w_ * m_; ++block)
    for_diagonal(level, block, 0, clocks,
                 [&](Index begin, Index end, double constant, const double* low) {
                   body(block * clocks + begin, block * clocks + end, constant, low);
                 });
}

Eigen::VectorXd GeneratorOperator::diagonal() const {
  Eigen::VectorXd diagonal(space_.size());
  diagonal.head(w_) = Eigen::Map<const Eigen::VectorXd>(diagonals_[0].blocks.data(), w_);
  for (int level = 1; level <= space_.capacity(); ++level) {
    double* d = diagonal.data() + space_.level_offset(level);
    for_level_diagonal(level, [&](Index begin, Index end, double constant, const double* low) {
      for (Index c = begin; c < end; ++c) d[c] = constant + low[c - begin];
    });
  }
  return diagonal;
}

double GeneratorOperator::slowest_outflow() const {
  double slowest = std::numeric_limits<double>::infinity();
  const auto visit = [&](double rate) {
    if (rate != 0) slowest = std::min(slowest, std::abs(rate));
  };
  for (const double rate : diagonals_[0].blocks) visit(rate);
  for (int level = 1; level <= space_.capacity(); ++level)
    for_level_diagonal(level, [&](Index begin, Index end, double constant, const double* low) {
      for (Index c = begin; c < end; ++c) visit(constant + low[c - begin]);
    });
  return slowest;
}

Eigen::VectorXd GeneratorOperator::apply(const Eigen::VectorXd& x, int threads) const {
  Eigen::VectorXd y(space_.size());
  apply(x.data(), y.data(), threads);
  return y;
}

// Every entry of y is owned by one piece of one (arrival phase, service phase) block of its level,
// and a piece's entries only gather from x, except its expiries into the level below, which land in
// a piece no other task of this level writes: level by level, the pieces of one arrival phase (its
// M service blocks together, which share the pages starting service) are independent tasks.
void GeneratorOperator::apply(const double* x, double* y, int threads) const {
  if (arrivals_.remembers()) {
    // A page leaving switches the mode, so a block's expiries land in another block one level
    // down: level by level, every block below is started before any lands there.
    for (int level = 1; level <= space_.capacity(); ++level)
      for (int arrival = 0; arrival < w_; ++arrival)
        for (Index piece = 0; piece < power(r_, split_clocks(level)); ++piece)
          apply_pieces(level, arrival, piece, x, y);
    apply_level_zero(x, y);
    return;
  }
  const bool parallel = threads > 1 && space_.size() >= kParallelGrain;
  if (space_.size() / (space_.capacity() + 1) < kSmallestLevelShared) {
    // Many small levels (a long buffer): a barrier a level would cost more than the level. A
    // block's pieces of every level in turn instead, blocks side by side: the same sums in the same
    // order.
#pragma omp parallel for num_threads(threads) schedule(static) if (parallel)
    for (int arrival = 0; arrival < w_; ++arrival)
      for (int level = 1; level <= space_.capacity(); ++level)
        for (Index piece = 0; piece < power(r_, split_clocks(level)); ++piece)
          apply_pieces(level, arrival, piece, x, y);
  } else {
#pragma omp parallel num_threads(threads) if (parallel)
    for (int level = 1; level <= space_.capacity(); ++level) {
      const Index pieces = power(r_, split_clocks(level));
#pragma omp for schedule(static)
      for (Index task = 0; task < w_ * pieces; ++task)
        apply_pieces(level, static_cast<int>(task / pieces), task % pieces, x, y);
    }
  }
  apply_level_zero(x, y);
}

GeneratorOperator::PieceSpan GeneratorOperator::piece_span(int level, Index piece) const {
  const Index clocks = space_.level_size(level) / (w_ * m_);
  const Index size = clocks / power(r_, split_clocks(level));
  return {.clocks = clocks, .size = size, .begin = piece * size};
}

bool GeneratorOperator::sweeps_shared(int threads) const {
  return threads > 1 && space_.size() >= kParallelGrain &&
         space_.size() / (space_.capacity() + 1) >= kSmallestLevelShared;
}

int GeneratorOperator::split_clocks(int level) const {
  // Enough pieces for 16 cores with W M = 1, none smaller than a few thousand states, and one clock
  // left unsplit below (its pieces then have the same prefixes).
  const int clocks = level - 1;
  if (r_ < 2 || clocks < 2) return 0;
  int split = 0;
  Index pieces = 1;
  const Index block = power(r_, clocks);
  while (split < clocks - 1 && pieces * r_ <= kMostPieces &&
         block / (pieces * r_) >= kSmallestPiece) {
    ++split;
    pieces *= r_;
  }
  return split;
}

void GeneratorOperator::apply_level_zero(const double* x, double* y) const {
  const Eigen::Map<const Eigen::RowVectorXd> x0(x, w_);
  Eigen::Map<Eigen::RowVectorXd> y0(y, w_);
  const std::vector<double>& empty = diagonals_[0].blocks;
  y0 = x0.cwiseProduct(Eigen::Map<const Eigen::RowVectorXd>(empty.data(), w_)) +
       x0 * levels_[0].stay_off_diagonal;
  if (space_.capacity() == 0) return;
  // Service ends at level 1 and the system empties.
  const double* x1 = x + space_.level_offset(1);
  for (int a = 0; a < w_; ++a)
    for (int s = 0; s < m_; ++s)
      y0(arrivals_.entered_phase(0, a)) += x1[a * m_ + s] * service_exit_(s);
}

// The entries [c0, c1) of one (arrival, service) block of `level` gather what batches bring from
// the levels below: the only moves up, so a forward sweep over the levels can solve with them. A
// batch of a pages puts gamma^(x)a after the old clocks, so the batches of every size are one
// Horner scheme: t = source_A, then t = t (x) gamma + source_a down to a = 1, and y += t (x) gamma.
// Each step works on R times fewer entries than the next: the whole costs about two passes over the
// piece, where a fan-out per batch size and source phase costs one each.
void GeneratorOperator::add_arrivals(int level, int block, Index c0, Index c1, const double* x,
                                     double* yb) const {
  const int arrival = block / m_, service = block % m_;
  const Index clocks = space_.level_size(level) / (w_ * m_);
  const Index piece_size = c1 - c0;
  const auto admitting = [&](int a) -> const Eigen::MatrixXd* {
    const auto& from_level = levels_[level - a].admitting;
    return a <= static_cast<int>(from_level.size()) ? &from_level[a - 1] : nullptr;
  };
  const int largest = std::min(level - 1, longest_batch_);
  // Batch sizes whose fan-out fits in the piece go through the scheme; larger ones (a piece inside
  // one old state's fan-out: short levels, many clock phases) fan out on their own.
  int nested = 0;
  while (nested < largest && new_clocks_[nested + 1].size() <= piece_size) ++nested;
  for (int a = nested + 1; a <= largest; ++a) {
    const Eigen::MatrixXd* rates = admitting(a);
    if (!rates) continue;
    const Eigen::VectorXd& fresh = new_clocks_[a];
    const Index width = fresh.size();
    for (int from = 0; from < w_; ++from) {
      const double rate = (*rates)(from, arrival);
      if (rate == 0) continue;
      const double* source =
          x + space_.level_offset(level - a) + (from * m_ + service) * (clocks / width);
      const Index c = c0 / width;
      const double flow = rate * source[c];
      for (Index j = c0; j < c1; ++j) yb[j] += flow * fresh(j - c * width);
    }
  }
  if (nested > 0) add_nested_arrivals(level, block, c0, c1, nested, x, yb);
  // A batch into the empty system: its first page starts service (beta), the rest wait.
  if (level <= static_cast<int>(levels_[0].admitting.size())) {
    const Eigen::RowVectorXd flow =
        Eigen::Map<const Eigen::RowVectorXd>(x, w_) * levels_[0].admitting[level - 1];
    const double rate = flow(arrival) * service_start_(service);
    const Eigen::VectorXd& waiting = new_clocks_[level - 1];
    if (rate != 0)
      for (Index c = c0; c < c1; ++c) yb[c] += rate * waiting(c);
  }
}

// Each step of the scheme is one pass: the larger batches' sum fanned out over the clock's start
// together with the first source's terms, the other sources after it. The last step (single pages,
// the widest) goes straight into y. The sums are added in the same order as one pass each would.
CRAWLQ_VECTOR_CLONES void GeneratorOperator::add_nested_arrivals(int level, int block, Index c0,
                                                                 Index c1, int nested,
                                                                 const double* x,
                                                                 double* yb) const {
  const int arrival = block / m_, service = block % m_;
  const Index clocks = space_.level_size(level) / (w_ * m_);
  const Index piece_size = c1 - c0;
  thread_local std::vector<double> sum, fanned;
  thread_local std::vector<std::pair<double, const double*>> sources;
  const double* gamma = new_clocks_[1].data();
  const int r = r_;
  bool any = false;
  for (int a = nested; a >= 1; --a) {
    const Index width = new_clocks_[a].size(), entries = piece_size / width;
    sources.clear();
    const auto& from_level = levels_[level - a].admitting;
    if (a <= static_cast<int>(from_level.size())) {
      const Eigen::MatrixXd& rates = from_level[a - 1];
      for (int from = 0; from < w_; ++from)
        if (const double rate = rates(from, arrival); rate != 0)
          sources.emplace_back(rate, x + space_.level_offset(level - a) +
                                         (from * m_ + service) * (clocks / width) + c0 / width);
    }
    if (!any && sources.empty()) continue;
    if (a > 1 || r != 2 || sources.size() > 2) {
      // fanned[o r + j]: the larger batches' sum at old clock state o times gamma_j, plus the
      // first source, then the other sources.
      fanned.resize(static_cast<std::size_t>(entries));
      if (any && !sources.empty()) {
        const double rate = sources[0].first;
        const double* source = sources[0].second;
        for (Index o = 0; o < entries / r; ++o)
          for (int j = 0; j < r; ++j)
            fanned[o * r + j] = sum[o] * gamma[j] + rate * source[o * r + j];
      } else if (any) {
        for (Index o = 0; o < entries / r; ++o)
          for (int j = 0; j < r; ++j) fanned[o * r + j] = sum[o] * gamma[j];
      } else {
        const double rate = sources[0].first;
        const double* source = sources[0].second;
        for (Index i = 0; i < entries; ++i) fanned[i] = rate * source[i];
      }
      for (std::size_t k = 1; k < sources.size(); ++k) {
        const double rate = sources[k].first;
        const double* source = sources[k].second;
        for (Index i = 0; i < entries; ++i) fanned[i] += rate * source[i];
      }
      std::swap(sum, fanned);
      any = true;
      continue;
    }
    // Single pages of the paper's two-phase clocks from at most two sources: each entry goes into
    // y as it is made, two stores an entry.
    const double first = gamma[0], second = gamma[1];
    const double rate0 = sources.empty() ? 0 : sources[0].first;
    const double rate1 = sources.size() == 2 ? sources[1].first : 0;
    const double* source0 = sources.empty() ? nullptr : sources[0].second;
    const double* source1 = sources.size() == 2 ? sources[1].second : nullptr;
    const auto put = [&](Index i, double v) {
      if (source1) v += rate1 * source1[i];
      yb[c0 + 2 * i] += v * first;
      yb[c0 + 2 * i + 1] += v * second;
    };
    if (any && source0) {
      for (Index o = 0; o < entries / 2; ++o) {
        put(2 * o, sum[o] * first + rate0 * source0[2 * o]);
        put(2 * o + 1, sum[o] * second + rate0 * source0[2 * o + 1]);
      }
    } else if (any) {
      for (Index o = 0; o < entries / 2; ++o) {
        put(2 * o, sum[o] * first);
        put(2 * o + 1, sum[o] * second);
      }
    } else {
      for (Index i = 0; i < entries; ++i) put(i, rate0 * source0[i]);
    }
    return;
  }
  if (!any) return;
  for (Index i = 0; i < piece_size / r; ++i)
    for (int j = 0; j < r; ++j) yb[c0 + i * r + j] += sum[i] * gamma[j];
}

// The pages that start service at a level: where a service ends one level up, whatever the server's
// phase and the head's clock, with memory from the environment phases the controller sends to
// `arrival`. One sum for the piece's M service blocks, which read the level above once, not M
// times.
CRAWLQ_VECTOR_CLONES void GeneratorOperator::started_from_above(int level, int arrival, Index piece,
                                                                const double* x,
                                                                double* started) const {
  const auto [clocks, piece_size, c0] = piece_span(level, piece);
  for (Index q = 0; q < piece_size; ++q) started[q] = 0;
  if (level >= space_.capacity()) return;
  const Index up = space_.level_offset(level + 1), up_clocks = clocks * r_;
  for (int above = 0; above < w_; ++above) {
    if (arrivals_.entered_phase(level, above) != arrival) continue;
    for (int from = 0; from < m_; ++from) {
      const double rate = service_exit_(from);
      if (rate == 0) continue;
      for (int head = 0; head < r_; ++head) {
        const double* source = x + up + (above * m_ + from) * up_clocks + head * clocks + c0;
        for (Index q = 0; q < piece_size; ++q) started[q] += rate * source[q];
      }
    }
  }
}

void GeneratorOperator::started_from_above_for_sweeps(int level, int arrival, Index piece,
                                                      const double* x, double* started) const {
  started_from_above(level, arrival, piece, x, started);
}

// The other third of a solve, built for each vector width (vector_clones.hpp).
CRAWLQ_VECTOR_CLONES void GeneratorOperator::apply_piece(int level, int block, Index piece,
                                                         const double* x, double* y,
                                                         const double* started) const {
  const int arrival = block / m_, service = block % m_;
  const int split = split_clocks(level);
  // clocks: the R^(level-1) combinations of a block's waiting clocks
  const auto [clocks, piece_size, c0] = piece_span(level, piece);
  const Index c1 = c0 + piece_size;
  const Index offset = space_.level_offset(level);
  const double* xb = x + offset + block * clocks;
  double* yb = y + offset + block * clocks;
  for_diagonal(level, block, c0, c1,
               [&](Index begin, Index end, double constant, const double* low)
                   CRAWLQ_INLINE_IN_CLONES {
                     for (Index c = begin; c < end; ++c)
                       yb[c] = (constant + low[c - begin]) * xb[c];
                   });

  // The arrival phase moves with no page admitted; the service phase moves.
  const Eigen::MatrixXd& stay = levels_[level].stay_off_diagonal;
  for (int from = 0; from < w_; ++from) {
    const double rate = stay(from, arrival);
    if (from == arrival || rate == 0) continue;
    const double* source = x + offset + (from * m_ + service) * clocks;
    for (Index c = c0; c < c1; ++c) yb[c] += rate * source[c];
  }
  for (int from = 0; from < m_; ++from) {
    const double rate = service_(from, service);
    if (from == service || rate == 0) continue;
    const double* source = x + offset + (arrival * m_ + from) * clocks;
    for (Index c = c0; c < c1; ++c) yb[c] += rate * source[c];
  }

  // Service ends one level up (`started`, summed once for the piece's every service phase): the
  // next page starts service with beta.
  if (level < space_.capacity() && service_start_(service) != 0) {
    const double rate = service_start_(service);
    for (Index q = 0; q < piece_size; ++q) yb[c0 + q] += rate * started[q];
  }

  add_arrivals(level, block, c0, c1, x, yb);

  // Waiting clocks change phase (this piece) or expire (the same piece of the block one level
  // down).
  if (level < 2) return;
  const int block_below = arrivals_.entered_phase(level - 1, arrival) * m_ + service;
  double* y_down =
      y + space_.level_offset(level - 1) + block_below * (clocks / r_) + piece * (piece_size / r_);
  // The split clocks first, in order, as a pass over the whole block would: their moves come from
  // other pieces of x, their expiries from the R pieces with that clock put back.
  for (int k = 0; k < split; ++k) {
    const Index stride = power(r_, split - 1 - k);  // clock k's weight in a piece's number
    const int phase = static_cast<int>((piece / stride) % r_);
    for (int from = 0; from < r_; ++from) {
      const double rate = clock_(from, phase);
      if (from == phase || rate == 0) continue;
      const double* source = xb + (piece + (from - phase) * stride) * piece_size;
      for (Index q = 0; q < piece_size; ++q) yb[c0 + q] += rate * source[q];
    }
  }
  add_split_expiries(level, piece, xb, y_down);
  ClockKernel(clock_, clock_exit_).apply(xb + c0, yb + c0, y_down, level - 1 - split);
}

CRAWLQ_VECTOR_CLONES void GeneratorOperator::add_split_expiries(int level, Index piece,
                                                                const double* xb,
                                                                double* y_down) const {
  const int split = split_clocks(level);
  const Index chunk = piece_span(level, piece).size / r_;
  for (int k = 0; k < split; ++k) {
    const Index stride = power(r_, split - 1 - k);
    // With clock k removed this piece's prefix is k's neighbours; put each phase of k back.
    const Index high = piece / (stride * r_), low = piece % (stride * r_);
    const auto with_clock = [&](int ph) {
      return xb + ((high * r_ + ph) * stride * r_ + low) * chunk;
    };
    if (r_ == 2) {
      const double* first = with_clock(0);
      const double* second = with_clock(1);
      const double exit_first = clock_exit_(0), exit_second = clock_exit_(1);
      for (Index q = 0; q < chunk; ++q)
        y_down[q] += exit_first * first[q] + exit_second * second[q];
    } else {
      for (int ph = 0; ph < r_; ++ph) {
        const double rate = clock_exit_(ph);
        if (rate == 0) continue;
        const double* source = with_clock(ph);
        for (Index q = 0; q < chunk; ++q) y_down[q] += rate * source[q];
      }
    }
  }
}

// The M service blocks of one arrival phase's piece: the started pages summed once, then each
// block.
void GeneratorOperator::apply_pieces(int level, int arrival, Index piece, const double* x,
                                     double* y) const {
  thread_local std::vector<double> started;
  const Index clocks = space_.level_size(level) / (w_ * m_);
  started.resize(static_cast<std::size_t>(clocks / power(r_, split_clocks(level))));
  started_from_above(level, arrival, piece, x, started.data());
  for (int service = 0; service < m_; ++service)
    apply_piece(level, arrival * m_ + service, piece, x, y, started.data());
}

}  // namespace crawlq::analytic
