#include "analytic/stationary/clock_kernel.hpp"

#include <type_traits>

#include "analytic/stationary/vector_clones.hpp"

namespace crawlq::analytic {

namespace {

using Index = Eigen::Index;

// Clock recursions over at most this many entries run flat: they are in L1 by then.
constexpr Index kFlatEntries = Index{1} << 8;

// The buffers a clock pass reads and writes never overlap: x is another vector than y, and y_down
// is y's level below (or another vector's). Said to the compiler, it vectorises without checking
// at run time, and short passes no longer fall back to scalar code: 0.21 ns an entry where it took
// 0.34 at 128 entries a column, 0.93 where it took 1.97 at 4.
#define CRAWLQ_DISJOINT __restrict__

struct TwoPhaseRates {
  double to_second, to_first, exit_first, exit_second;
};

TwoPhaseRates two_phase_rates(const Eigen::MatrixXd& gamma, const Eigen::VectorXd& exits) {
  return {gamma(0, 1), gamma(1, 0), exits(0), exits(1)};
}

// The columns [begin, end) of one two-phase clock over `outer` pairs of columns of `inner` entries:
// its moves (when Moves) and its expiries, reading each pair once.
template <bool Moves>
CRAWLQ_INLINE_IN_CLONES inline void two_phase_columns(const double* CRAWLQ_DISJOINT x,
                                                      double* CRAWLQ_DISJOINT y_same,
                                                      double* CRAWLQ_DISJOINT y_down, Index outer,
                                                      Index inner, Index begin, Index end,
                                                      const TwoPhaseRates& rates) {
  for (Index o = 0; o < outer; ++o) {
    const double* first = x + 2 * o * inner;
    const double* second = first + inner;
    double* down = y_down + o * inner;
#pragma GCC unroll 16
    for (Index q = begin; q < end; ++q) {
      if constexpr (Moves) {
        double* y_first = y_same + 2 * o * inner;
        double* y_second = y_first + inner;
        y_second[q] += rates.to_second * first[q];
        y_first[q] += rates.to_first * second[q];
      }
      down[q] += rates.exit_first * first[q] + rates.exit_second * second[q];
    }
  }
}

// A whole column of one or two entries (the last clock of an odd count, alone after the pairs)
// inlined with its length a constant: unrolled at the vector width, where a loop that short ran
// scalar (0.15-0.2 ns an entry against 0.3-1.1 at 2-8 entries).
template <bool Moves>
CRAWLQ_INLINE_IN_CLONES inline void two_phase_pass(const double* x, double* y_same, double* y_down,
                                                   Index outer, Index inner, Index begin, Index end,
                                                   const TwoPhaseRates& rates) {
  if (begin == 0 && end == inner) {
    switch (inner) {
      case 1:
        return two_phase_columns<Moves>(x, y_same, y_down, outer, 1, 0, 1, rates);
      case 2:
        return two_phase_columns<Moves>(x, y_same, y_down, outer, 2, 0, 2, rates);
      default:
        break;
    }
  }
  two_phase_columns<Moves>(x, y_same, y_down, outer, inner, begin, end, rates);
}

// Two clocks in one pass: clock k over `outer` pairs of columns of `inner` entries and clock k + 1
// inside each column, each entry read and written once for both where a pass a clock read and wrote
// it twice. Every entry gathers its terms in the order of two passes, clock k's first.
template <bool Moves>
CRAWLQ_INLINE_IN_CLONES inline void two_phase_pair_columns(const double* CRAWLQ_DISJOINT x,
                                                           double* CRAWLQ_DISJOINT y_same,
                                                           double* CRAWLQ_DISJOINT y_down,
                                                           Index outer, Index inner, Index begin,
                                                           Index end, const TwoPhaseRates& rates) {
  const Index half = inner / 2;
  for (Index o = 0; o < outer; ++o) {
    // x[o, a, b, q]: clock k in phase a, clock k + 1 in phase b.
    const double* x00 = x + 2 * o * inner;
    const double *x01 = x00 + half, *x10 = x00 + inner, *x11 = x10 + half;
    double* down0 = y_down + o * inner;  // clock k or clock k + 1 gone from a state in phase 0 ...
    double* down1 = down0 + half;        // ... or in phase 1 of the other
#pragma GCC unroll 16
    for (Index q = begin; q < end; ++q) {
      const double a = x00[q], b = x01[q], c = x10[q], d = x11[q];
      if constexpr (Moves) {
        double* y00 = y_same + 2 * o * inner;
        double *y01 = y00 + half, *y10 = y00 + inner, *y11 = y10 + half;
        y00[q] = y00[q] + rates.to_first * c + rates.to_first * b;
        y01[q] = y01[q] + rates.to_first * d + rates.to_second * a;
        y10[q] = y10[q] + rates.to_second * a + rates.to_first * d;
        y11[q] = y11[q] + rates.to_second * b + rates.to_second * c;
      }
      down0[q] = down0[q] + (rates.exit_first * a + rates.exit_second * c) +
                 (rates.exit_first * a + rates.exit_second * b);
      down1[q] = down1[q] + (rates.exit_first * b + rates.exit_second * d) +
                 (rates.exit_first * c + rates.exit_second * d);
    }
  }
}

// Columns of up to 16 entries whole inlined with their length a constant, as two_phase_pass; longer
// ones, or a range of columns, by the one loop (the same sums however a pass is cut).
template <bool Moves>
CRAWLQ_INLINE_IN_CLONES inline void two_phase_pair_pass(const double* x, double* y_same,
                                                        double* y_down, Index outer, Index inner,
                                                        Index begin, Index end,
                                                        const TwoPhaseRates& rates) {
  if (begin == 0 && end == inner / 2) {
    switch (inner) {
      case 2:
        return two_phase_pair_columns<Moves>(x, y_same, y_down, outer, 2, 0, 1, rates);
      case 4:
        return two_phase_pair_columns<Moves>(x, y_same, y_down, outer, 4, 0, 2, rates);
      case 8:
        return two_phase_pair_columns<Moves>(x, y_same, y_down, outer, 8, 0, 4, rates);
      case 16:
        return two_phase_pair_columns<Moves>(x, y_same, y_down, outer, 16, 0, 8, rates);
      case 32:
        return two_phase_pair_columns<Moves>(x, y_same, y_down, outer, 32, 0, 16, rates);
      default:
        break;
    }
  }
  two_phase_pair_columns<Moves>(x, y_same, y_down, outer, inner, begin, end, rates);
}

// Two phases (the paper's clocks), built for each vector width (vector_clones.hpp), since this loop
// is most of a solve and runs in cache.
CRAWLQ_VECTOR_CLONES void two_phase_clock(const double* x, double* y_same, double* y_down,
                                          Index outer, Index inner, Index begin, Index end,
                                          const TwoPhaseRates& rates) {
  two_phase_pass<true>(x, y_same, y_down, outer, inner, begin, end, rates);
}

CRAWLQ_VECTOR_CLONES void two_phase_expiries(const double* x, double* y_down, Index outer,
                                             Index inner, const TwoPhaseRates& rates) {
  two_phase_pass<false>(x, nullptr, y_down, outer, inner, 0, inner, rates);
}

// target[q] += rate source[q] over [begin, end), for clocks of any number of phases.
void add_scaled(double* CRAWLQ_DISJOINT target, const double* CRAWLQ_DISJOINT source, double rate,
                Index begin, Index end) {
  for (Index q = begin; q < end; ++q) target[q] += rate * source[q];
}

CRAWLQ_VECTOR_CLONES void two_phase_pair(const double* x, double* y_same, double* y_down,
                                         Index outer, Index inner, Index begin, Index end,
                                         const TwoPhaseRates& rates) {
  two_phase_pair_pass<true>(x, y_same, y_down, outer, inner, begin, end, rates);
}

CRAWLQ_VECTOR_CLONES void two_phase_pair_expiries(const double* x, double* y_down, Index outer,
                                                  Index inner, const TwoPhaseRates& rates) {
  two_phase_pair_pass<false>(x, nullptr, y_down, outer, inner, 0, inner / 2, rates);
}

Index block_entries(int r, int n, Index trailing) {
  Index size = trailing;
  for (int k = 0; k < n; ++k) size *= r;
  return size;
}

}  // namespace

ClockKernel::ClockKernel(const Eigen::MatrixXd& gamma, const Eigen::VectorXd& gamma_exit)
    : gamma_(gamma), exit_(gamma_exit), r_(static_cast<int>(gamma.rows())) {}

// Each head phase's sub-block on its own fits in cache a few levels down. Two-phase clocks go two a
// pass, paired from the block's first clock (0.30 ns an entry and clock where one a pass took 0.57:
// the pass in cache is bound by its loads and stores once it vectorises).
template <typename Step, typename Pair>
void ClockKernel::walk(int n, Index trailing, Index at, Index below, const Step& step,
                       const Pair& pair) const {
  if (n <= 0) return;
  const Index size = block_entries(r_, n, trailing);
  // Two clocks a pass where the clocks have two phases and the caller has a pair step, else one.
  const bool paired = !std::is_same_v<Pair, NoPair> && r_ == 2;
  if (size <= kFlatEntries) {
    Index outer = 1, inner = size / r_;
    int k = 0;
    if (paired)
      for (; k + 1 < n; k += 2, outer *= 4, inner /= 4) pair(outer, inner, at, below);
    for (; k < n; ++k, outer *= r_, inner /= r_) step(outer, inner, at, below);
    return;
  }
  const Index half = size / r_;
  if (paired && n >= 2) {
    const Index quarter = half / 2;
    pair(1, half, at, below);
    for (int r = 0; r < 4; ++r)
      walk(n - 2, trailing, at + r * quarter, below + r * (quarter / 2), step, pair);
    return;
  }
  step(1, half, at, below);
  for (int r = 0; r < r_; ++r)
    walk(n - 1, trailing, at + r * half, below + r * (half / r_), step, pair);
}

void ClockKernel::apply(const double* x, double* y_same, double* y_down, int n,
                        Index trailing) const {
  if (n <= 0) return;
  // One phase (an exponential clock): n clocks are one state that leaves at n times the rate; a
  // pass per clock would make a long buffer cost K^2.
  if (r_ == 1) {
    for (Index q = 0; q < trailing; ++q) y_down[q] += n * exit_(0) * x[q];
    return;
  }
  const TwoPhaseRates rates = two_phase_rates(gamma_, exit_);
  walk(
      n, trailing, 0, 0,
      [&](Index outer, Index inner, Index at, Index below) {
        one_clock(x + at, y_same + at, y_down + below, outer, inner, 0, inner);
      },
      [&](Index outer, Index inner, Index at, Index below) {
        two_phase_pair(x + at, y_same + at, y_down + below, outer, inner, 0, inner / 2, rates);
      });
}

void ClockKernel::expire(const double* x, double* y_down, int n, Index trailing) const {
  if (n <= 0) return;
  if (r_ == 1) {
    for (Index q = 0; q < trailing; ++q) y_down[q] += n * exit_(0) * x[q];
    return;
  }
  const TwoPhaseRates rates = two_phase_rates(gamma_, exit_);
  walk(
      n, trailing, 0, 0,
      [&](Index outer, Index inner, Index at, Index below) {
        one_clock_expiries(x + at, y_down + below, outer, inner);
      },
      [&](Index outer, Index inner, Index at, Index below) {
        two_phase_pair_expiries(x + at, y_down + below, outer, inner, rates);
      });
}

void ClockKernel::first_pass(const double* x, double* y_same, double* y_down, Index size,
                             int clocks, Index begin, Index end) const {
  if (clocks == 2)
    two_phase_pair(x, y_same, y_down, 1, size / 2, begin, end, two_phase_rates(gamma_, exit_));
  else
    one_clock(x, y_same, y_down, 1, size / r_, begin, end);
}

void ClockKernel::gather_down(const double* x_down, double* r, int n, Index trailing) const {
  if (n <= 0) return;
  if (r_ == 1) {
    for (Index q = 0; q < trailing; ++q) r[q] += n * exit_(0) * x_down[q];
    return;
  }
  walk(
      n, trailing, 0, 0,
      [&](Index outer, Index inner, Index at, Index below) {
        one_clock_gather(x_down + below, r + at, outer, inner);
      },
      NoPair{});
}

void ClockKernel::one_clock(const double* x, double* y_same, double* y_down, Index outer,
                            Index inner, Index begin, Index end) const {
  if (r_ == 2) {
    two_phase_clock(x, y_same, y_down, outer, inner, begin, end, two_phase_rates(gamma_, exit_));
    return;
  }
  for (Index o = 0; o < outer; ++o) {
    const double* xo = x + o * r_ * inner;
    double* yo = y_same + o * r_ * inner;
    double* down = y_down + o * inner;
    for (int from = 0; from < r_; ++from) {
      const double* source = xo + from * inner;
      for (int to = 0; to < r_; ++to) {
        const double rate = gamma_(from, to);
        if (to == from || rate == 0) continue;
        add_scaled(yo + to * inner, source, rate, begin, end);
      }
      const double rate = exit_(from);
      if (rate != 0) add_scaled(down, source, rate, begin, end);
    }
  }
}

void ClockKernel::one_clock_expiries(const double* x, double* y_down, Index outer,
                                     Index inner) const {
  if (r_ == 2) {
    two_phase_expiries(x, y_down, outer, inner, two_phase_rates(gamma_, exit_));
    return;
  }
  for (Index o = 0; o < outer; ++o) {
    const double* xo = x + o * r_ * inner;
    double* down = y_down + o * inner;
    for (int from = 0; from < r_; ++from) {
      const double rate = exit_(from);
      if (rate == 0) continue;
      add_scaled(down, xo + from * inner, rate, 0, inner);
    }
  }
}

void ClockKernel::one_clock_gather(const double* x_down, double* r, Index outer,
                                   Index inner) const {
  for (Index o = 0; o < outer; ++o) {
    const double* source = x_down + o * inner;
    for (int phase = 0; phase < r_; ++phase) {
      const double rate = exit_(phase);
      if (rate == 0) continue;
      add_scaled(r + (o * r_ + phase) * inner, source, rate, 0, inner);
    }
  }
}

}  // namespace crawlq::analytic
