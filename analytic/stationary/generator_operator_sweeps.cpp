// The operator's preconditioners for Q^T: Gauss-Seidel by level (forward_sweep) and the symmetric
// sweep. Both solve triangles of Q^T in the chain's order from the same small factors as the
// product, piece by piece, so that every entry is the same sum for any thread count.
#include <algorithm>
#include <utility>
#include <vector>

#include "analytic/stationary/clock_kernel.hpp"
#include "analytic/stationary/generator_operator.hpp"
#include "analytic/stationary/kronecker_terms.hpp"

namespace crawlq::analytic {

using Index = Eigen::Index;

namespace {
// The symmetric sweep takes the expiries of a piece's last clocks, this many entries' worth at a
// time (in cache). Measured on the paper's example, those of the first clocks lower no iterations
// and cost a pass over memory each: with every unsplit clock's, 20 iterations at K = 18 (and 23
// with none); with 256 entries' worth, 15, 19 and 22 at K = 12, 16 and 19; with 64, 16, 19 and
// 22, in 0.95 of the time at K = 20.
constexpr Index kSweptExpiryEntries = 64;

// rate times one piece's entries of another block (or of the pages started from above).
struct Term {
  double rate;
  const double* values;
};

// z[q] = (base(q, d_q) - the terms in order) / d_q over one piece, in one pass: a sweep's entries
// are each read and written once, not once a term. `diagonal(body)` gives the piece's d_q run by
// run (GeneratorOperator::DiagonalPiece).
template <typename Diagonal, typename Base>
CRAWLQ_INLINE_IN_CLONES inline void solve_entries(double* z, const Diagonal& diagonal,
                                                  const std::vector<Term>& terms, Base base) {
  diagonal([&](Index begin, Index end, double constant, const double* low) CRAWLQ_INLINE_IN_CLONES {
    const double* d = low - begin;  // d[q] + constant is d_q
    switch (terms.size()) {
      case 0:
        for (Index q = begin; q < end; ++q) {
          const double dq = constant + d[q];
          z[q] = base(q, dq) / dq;
        }
        return;
      case 1: {
        const Term a = terms[0];
        for (Index q = begin; q < end; ++q) {
          const double dq = constant + d[q];
          z[q] = (base(q, dq) - a.rate * a.values[q]) / dq;
        }
        return;
      }
      case 2: {
        const Term a = terms[0], b = terms[1];
        for (Index q = begin; q < end; ++q) {
          const double dq = constant + d[q];
          z[q] = (base(q, dq) - a.rate * a.values[q] - b.rate * b.values[q]) / dq;
        }
        return;
      }
      case 3: {
        const Term a = terms[0], b = terms[1], c = terms[2];
        for (Index q = begin; q < end; ++q) {
          const double dq = constant + d[q];
          z[q] =
              (base(q, dq) - a.rate * a.values[q] - b.rate * b.values[q] - c.rate * c.values[q]) /
              dq;
        }
        return;
      }
      default:
        for (Index q = begin; q < end; ++q) {
          const double dq = constant + d[q];
          double value = base(q, dq);
          for (const Term& term : terms) value -= term.rate * term.values[q];
          z[q] = value / dq;
        }
    }
  });
}

// The phase moves into block (arrival, service) of a level from its earlier blocks (`earlier`:
// the arrival phases before with the same service phase, then the service phases before) or from
// its later ones, appended as terms over one piece; `level_piece` is the piece's first entry in
// block 0.
void add_phase_terms(const Eigen::MatrixXd& stay, const Eigen::MatrixXd& service_moves, int arrival,
                     int service, Index clocks, const double* level_piece, bool earlier,
                     std::vector<Term>& terms) {
  const int arrivals = static_cast<int>(stay.rows()),
            services = static_cast<int>(service_moves.rows());
  const auto from_range = [&](int to, int count) {
    return earlier ? std::pair{0, to} : std::pair{to + 1, count};
  };
  const auto [first_arrival, arrival_end] = from_range(arrival, arrivals);
  for (int from = first_arrival; from < arrival_end; ++from)
    if (const double rate = stay(from, arrival); rate != 0)
      terms.push_back({rate, level_piece + (from * services + service) * clocks});
  const auto [first_service, service_end] = from_range(service, services);
  for (int from = first_service; from < service_end; ++from)
    if (const double rate = service_moves(from, service); rate != 0)
      terms.push_back({rate, level_piece + (arrival * services + from) * clocks});
}
}  // namespace

void GeneratorOperator::forward_sweep(const double* r, double* z, Index pinned, double pinned_scale,
                                      int threads) const {
  const std::vector<double>& empty = diagonals_[0].blocks;
  // The pinned state is set where it lies, before any level above reads it (its diagonal may be 0).
  for (int a = 0; a < w_; ++a)
    z[a] = a == pinned ? r[a] / pinned_scale : r[a] / empty[static_cast<std::size_t>(a)];
  const int blocks = w_ * m_;
#pragma omp parallel num_threads(threads) if (sweeps_shared(threads))
  for (int level = 1; level <= space_.capacity(); ++level) {
    const Index pieces = power(r_, split_clocks(level));
    const Index clocks = space_.level_size(level) / blocks, piece_size = clocks / pieces;
#pragma omp for schedule(static)
    for (Index task = 0; task < blocks * pieces; ++task) {
      const int block = static_cast<int>(task / pieces);
      const Index c0 = (task % pieces) * piece_size, c1 = c0 + piece_size;
      const Index offset = space_.level_offset(level) + block * clocks;
      double* zb = z + offset;
      for (Index c = c0; c < c1; ++c) zb[c] = 0;
      add_arrivals(level, block, c0, c1, z, zb);
      const double* rb = r + offset;
      for_diagonal(level, block, c0, c1,
                   [&](Index begin, Index end, double constant, const double* low) {
                     for (Index c = begin; c < end; ++c)
                       zb[c] = (rb[c] - zb[c]) / (constant + low[c - begin]);
                   });
      if (pinned >= offset + c0 && pinned < offset + c1) z[pinned] = r[pinned] / pinned_scale;
    }
  }
}

// Forward, y = (D + L)^-1 r, into z: level by level, a level's pieces side by side, each going
// through its (arrival, service) blocks in order (a block's piece reads only the same piece of the
// level's other blocks, so one barrier a level will do). Backward, z = (D + U)^-1 D y, in place:
// level by level from the top, each piece's blocks in reverse, each finished block pushing its
// expiries into its chunk of the level below, which it first turns from y into -D y; that level
// then solves z = (-v - its other terms) / D. The clocks' moves inside a level are left out of
// both: they would chain every piece to its neighbours, and measured on the assembled chain they
// lower the iterations by one or two (15 against 17 at K = 15) for a clock pass each way.
void GeneratorOperator::symmetric_sweep(const double* r, double* z, Index pinned,
                                        double pinned_scale, int threads) const {
  const std::vector<double>& d = diagonals_[0].blocks;  // the empty system's
  const int capacity = space_.capacity();
  const Eigen::MatrixXd& stay_empty = levels_[0].stay_off_diagonal;
  for (int a = 0; a < w_; ++a) {
    double t = r[a];
    for (int from = 0; from < a; ++from) t -= stay_empty(from, a) * z[from];
    z[a] = a == pinned ? r[a] / pinned_scale : t / d[static_cast<std::size_t>(a)];
  }
  const bool shared = sweeps_shared(threads);
#pragma omp parallel num_threads(threads) if (shared)
  for (int level = 1; level <= capacity; ++level) {
    const Index pieces = power(r_, split_clocks(level));
#pragma omp for schedule(dynamic)
    for (Index piece = 0; piece < pieces; ++piece)
      for (int arrival = 0; arrival < w_; ++arrival)
        sweep_up(level, arrival, piece, r, z, pinned, pinned_scale);
  }

  // The pinned row of D + U is pinned_scale z = pinned_scale y.
  const double pinned_value = z[pinned];
  // A memory policy's expiries may land several blocks in one: the level below is turned into
  // -D y before any lands there, not by each piece as it writes.
  const bool one_writer = !arrivals_.remembers();
#pragma omp parallel num_threads(threads) if (shared)
  for (int level = capacity; level >= 1; --level) {
    if (!one_writer && level >= 2) {
      double* below = z + space_.level_offset(level - 1);
      const Index clocks = space_.level_size(level - 1) / (w_ * m_);
#pragma omp for schedule(static)
      for (int block = 0; block < w_ * m_; ++block)
        for_diagonal(level - 1, block, 0, clocks,
                     [&](Index begin, Index end, double constant, const double* low) {
                       for (Index c = begin; c < end; ++c)
                         below[block * clocks + c] *= -(constant + low[c - begin]);
                     });
    }
    const Index pieces = power(r_, split_clocks(level));
#pragma omp for schedule(dynamic)
    for (Index piece = 0; piece < pieces; ++piece)
      for (int arrival = w_ - 1; arrival >= 0; --arrival)
        sweep_down(level, arrival, piece, z, level == capacity, one_writer, pinned, pinned_value);
  }

  // The empty system: its D y, less the services ending at level 1, then the arrival phases in
  // reverse.
  std::vector<double> t(static_cast<std::size_t>(w_));
  for (int a = 0; a < w_; ++a)
    t[static_cast<std::size_t>(a)] = d[static_cast<std::size_t>(a)] * z[a];
  if (capacity >= 1) {
    const double* level_one = z + space_.level_offset(1);
    for (int a = 0; a < w_; ++a)
      for (int s = 0; s < m_; ++s)
        t[static_cast<std::size_t>(arrivals_.entered_phase(0, a))] -=
            level_one[a * m_ + s] * service_exit_(s);
  }
  for (int a = w_ - 1; a >= 0; --a) {
    double value = t[static_cast<std::size_t>(a)];
    for (int from = a + 1; from < w_; ++from) value -= stay_empty(from, a) * z[from];
    z[a] = a == pinned ? pinned_value : value / d[static_cast<std::size_t>(a)];
  }
}

CRAWLQ_VECTOR_CLONES void GeneratorOperator::sweep_up(int level, int arrival, Index piece,
                                                      const double* r, double* z, Index pinned,
                                                      double pinned_scale) const {
  const auto [clocks, piece_size, c0] = piece_span(level, piece);
  const Index c1 = c0 + piece_size;
  const Index level_offset = space_.level_offset(level);
  // The piece's first entry in block 0, from which the phase moves' terms are read.
  const double* level_piece = z + level_offset + c0;
  thread_local std::vector<Term> terms;
  for (int service = 0; service < m_; ++service) {
    const int block = arrival * m_ + service;
    const Index offset = level_offset + block * clocks;
    double* zb = z + offset;
    for (Index c = c0; c < c1; ++c) zb[c] = 0;
    add_arrivals(level, block, c0, c1, z, zb);
    terms.clear();
    add_phase_terms(levels_[level].stay_off_diagonal, service_, arrival, service, clocks,
                    level_piece, true, terms);
    const double* rb = r + offset + c0;
    double* piece_z = zb + c0;
    solve_entries(piece_z, piece_diagonal(level, block, c0, c1), terms,
                  [&](Index q, double) CRAWLQ_INLINE_IN_CLONES { return rb[q] - piece_z[q]; });
    if (pinned >= offset + c0 && pinned < offset + c1) z[pinned] = r[pinned] / pinned_scale;
  }
}

CRAWLQ_VECTOR_CLONES void GeneratorOperator::sweep_down(int level, int arrival, Index piece,
                                                        double* z, bool top, bool convert_below,
                                                        Index pinned, double pinned_value) const {
  thread_local std::vector<double> started;
  const auto [clocks, piece_size, c0] = piece_span(level, piece);
  const Index c1 = c0 + piece_size;
  const Index level_offset = space_.level_offset(level);
  // The piece's first entry in block 0, from which the phase moves' terms are read.
  const double* level_piece = z + level_offset + c0;
  if (!top) {
    started.resize(static_cast<std::size_t>(piece_size));
    started_from_above_for_sweeps(level, arrival, piece, z, started.data());
  }
  thread_local std::vector<Term> terms;
  for (int service = m_ - 1; service >= 0; --service) {
    const int block = arrival * m_ + service;
    const Index offset = level_offset + block * clocks;
    terms.clear();
    if (const double rate = service_start_(service); !top && rate != 0)
      terms.push_back({rate, started.data()});
    add_phase_terms(levels_[level].stay_off_diagonal, service_, arrival, service, clocks,
                    level_piece, false, terms);
    // D y at the top; below, the entries hold -D y plus the expiries from above.
    double* piece_z = z + offset + c0;
    const auto diagonal = piece_diagonal(level, block, c0, c1);
    if (top)
      solve_entries(piece_z, diagonal, terms,
                    [&](Index q, double dq) CRAWLQ_INLINE_IN_CLONES { return dq * piece_z[q]; });
    else
      solve_entries(piece_z, diagonal, terms,
                    [&](Index q, double) CRAWLQ_INLINE_IN_CLONES { return -piece_z[q]; });
    if (pinned >= offset + c0 && pinned < offset + c1) z[pinned] = pinned_value;
    if (level >= 2) push_expiries(level, block, piece, z, convert_below);
  }
}

CRAWLQ_VECTOR_CLONES void GeneratorOperator::push_expiries(int level, int block, Index piece,
                                                           double* z, bool convert) const {
  const int arrival = block / m_, service = block % m_;
  const auto [clocks, piece_size, c0] = piece_span(level, piece);
  const double* zb = z + space_.level_offset(level) + block * clocks + c0;
  const int block_below = arrivals_.entered_phase(level - 1, arrival) * m_ + service;
  const Index below =
      space_.level_offset(level - 1) + block_below * (clocks / r_) + piece * (piece_size / r_);
  double* y_down = z + below;
  if (convert) {
    const Index first = piece * (piece_size / r_);
    for_diagonal(level - 1, block_below, first, first + piece_size / r_,
                 [&](Index begin, Index end, double constant, const double* low)
                     CRAWLQ_INLINE_IN_CLONES {
                       for (Index c = begin; c < end; ++c)
                         y_down[c - first] *= -(constant + low[c - begin]);
                     });
  }
  // The last clocks of the piece, a sub-block in cache at a time.
  const ClockKernel kernel(clock_, clock_exit_);
  const int last = swept_expiring_clocks(level);
  const Index sub = power(r_, last);
  for (Index first = 0; first < piece_size; first += sub)
    kernel.expire(zb + first, y_down + first / sub * (sub / r_), last);
}

int GeneratorOperator::swept_expiring_clocks(int level) const {
  const int unsplit = std::max(0, level - 1 - split_clocks(level));
  if (r_ == 1) return unsplit;  // one combination, however many clocks
  int last = 0;
  for (Index sub = r_; last < unsplit && sub <= kSweptExpiryEntries; sub *= r_) ++last;
  return last;
}

}  // namespace crawlq::analytic
