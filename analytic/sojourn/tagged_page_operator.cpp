#include "analytic/sojourn/tagged_page_operator.hpp"

#include <omp.h>

#include <algorithm>

#include "analytic/stationary/clock_kernel.hpp"

namespace crawlq::analytic {

namespace {

using Index = Eigen::Index;

// Below this many states a block goes whole to one thread: handing out its pieces would cost more
// than they share.
constexpr Index kTaggedParallelGrain = Index{1} << 14;
// The entries of one piece handed to a thread; a clock pass's sub-blocks are cut to this size too,
// where the rest of their clocks then run in cache.
constexpr Index kPieceEntries = Index{1} << 14;

Index pieces(Index entries, Index piece) { return (entries + piece - 1) / piece; }

}  // namespace

TaggedPageOperator::TaggedPageOperator(const model::Model& model)
    : m_(model.service.phases()),
      r_(model.obsolescence ? model.obsolescence->phases() : 1),
      service_(model.service.subgenerator()),
      clock_(model.obsolescence ? Eigen::MatrixXd(model.obsolescence->subgenerator())
                                : Eigen::MatrixXd::Zero(1, 1)),
      service_exit_(model.service.exit_rates()),
      service_start_(model.service.initial().transpose()),
      clock_exit_(model.obsolescence ? Eigen::VectorXd(model.obsolescence->exit_rates())
                                     : Eigen::VectorXd::Zero(1)) {
  offsets_ = {0, m_};
  Index per_server = 1;
  for (int ahead = 0; ahead + 2 <= model.capacity; ++ahead) {
    per_server *= r_;  // ahead + 1 clocks: theirs and its own
    offsets_.push_back(offsets_.back() + m_ * per_server);
  }

  diagonal_.resize(size());
  for (int s = 0; s < m_; ++s) diagonal_(s) = service_(s, s);
  Eigen::VectorXd clocks = Eigen::VectorXd::Zero(1);  // sum of Gamma(c, c) over a block's clocks
  for (int ahead = 0; ahead <= max_pages_ahead(); ++ahead) {
    Eigen::VectorXd longer(clocks.size() * r_);
    for (Index c = 0; c < longer.size(); ++c) longer(c) = clocks(c / r_) + clock_(c % r_, c % r_);
    clocks = std::move(longer);
    for (int s = 0; s < m_; ++s)
      diagonal_.segment(offset(ahead) + s * clocks.size(), clocks.size()) =
          service_(s, s) + clocks.array();
  }
}

void TaggedPageOperator::left_multiply(const double* x, double* y, int most_ahead,
                                       int threads) const {
  // The blocks with few pages ahead are small: one thread does them all, then the threads share
  // each larger block in pieces handed out as they come free (a thread the system has descheduled
  // holds up one piece, not a fixed share). Every entry's sum is formed in the same order however
  // the pieces fall: the same bits for any thread count.
  int first_shared = 0;
  while (first_shared <= most_ahead && block_size(first_shared) < kTaggedParallelGrain)
    ++first_shared;
  const bool shared = threads > 1 && first_shared <= most_ahead;
  // The service row and the blocks one thread does whole: the small ones, or all of them.
  const int last_whole = shared ? first_shared - 1 : most_ahead;
  const auto whole_blocks = [&] {
    in_service_row(x, y, most_ahead >= 0);
    for (int ahead = 0; ahead <= last_whole; ++ahead)
      for (int s = 0; s < m_; ++s) {
        own_terms(ahead, s, 0, block_size(ahead) / m_, x, y, ahead < most_ahead);
        if (ahead >= 1) clock_terms(ahead, s, x, y);
      }
  };
  if (!shared) {
    whole_blocks();
    return;
  }
#pragma omp parallel num_threads(threads)
  {
#pragma omp single
    whole_blocks();
    for (int ahead = first_shared; ahead <= most_ahead; ++ahead)
      shared_block(ahead, x, y, ahead < most_ahead);
  }
}

void TaggedPageOperator::shared_block(int ahead, const double* x, double* y,
                                      bool with_block_above) const {
  // Called by every thread of a parallel region: its loops are the region's work-sharing loops,
  // each ending at a barrier, since each step adds to what the one before wrote.
  const Index per_server = block_size(ahead) / m_;
  const Index own_piece = std::max<Index>(r_, kPieceEntries / r_ * r_);  // whole own-clock cycles
  const Index own_pieces = pieces(per_server, own_piece);
#pragma omp for schedule(dynamic)
  for (Index p = 0; p < m_ * own_pieces; ++p) {
    const Index begin = (p % own_pieces) * own_piece;
    own_terms(ahead, static_cast<int>(p / own_pieces), begin,
              std::min(per_server, begin + own_piece), x, y, with_block_above);
  }
  if (ahead == 0) return;
  // The clocks ahead: the first few in passes over the whole block cut into column ranges, as
  // ClockKernel::apply does them first, then each sub-block whole with its remaining clocks.
  const ClockKernel kernel(clock_, clock_exit_);
  const Index per_server_down = per_server / r_;
  int remaining = ahead;
  Index sub = per_server, subs = 1;  // sub-blocks per service phase, and their size
  // Only as many passes as give each thread a few sub-blocks to take: each pass ends at a barrier.
  const Index wanted = 4 * omp_get_num_threads();
  while (remaining > 0 && sub > kPieceEntries && m_ * subs < wanted) {
    const int clocks = kernel.clocks_per_pass(remaining);
    const Index fan_out = clocks == 2 ? r_ * r_ : r_;  // the sub-blocks a pass leaves
    const Index columns = sub / fan_out, column_pieces = pieces(columns, kPieceEntries);
#pragma omp for schedule(dynamic)
    for (Index p = 0; p < m_ * subs * column_pieces; ++p) {
      const Index b = p / column_pieces, begin = (p % column_pieces) * kPieceEntries;
      const Index s = b / subs, k = b % subs;
      kernel.first_pass(x + offset(ahead) + s * per_server + k * sub,
                        y + offset(ahead) + s * per_server + k * sub,
                        y + offset(ahead - 1) + s * per_server_down + k * (sub / r_), sub, clocks,
                        begin, std::min(columns, begin + kPieceEntries));
    }
    remaining -= clocks;
    sub /= fan_out;
    subs *= fan_out;
  }
#pragma omp for schedule(dynamic)
  for (Index b = 0; b < m_ * subs; ++b) {
    const Index s = b / subs, k = b % subs;
    kernel.apply(x + offset(ahead) + s * per_server + k * sub,
                 y + offset(ahead) + s * per_server + k * sub,
                 y + offset(ahead - 1) + s * per_server_down + k * (sub / r_), remaining, r_);
  }
}

void TaggedPageOperator::in_service_row(const double* x, double* y, bool with_block_above) const {
  const Eigen::Map<const Eigen::RowVectorXd> x_in(x, m_);
  Eigen::Map<Eigen::RowVectorXd> y_in(y, m_);
  y_in = x_in * service_;
  if (!with_block_above) return;
  // With nobody ahead, service ends and the tagged page starts its own (its clock goes).
  const double* above = x + offset(0);
  double flow = 0;
  for (int s = 0; s < m_; ++s)
    for (int own = 0; own < r_; ++own) flow += service_exit_(s) * above[s * r_ + own];
  y_in += flow * service_start_.transpose();
}

void TaggedPageOperator::own_terms(int ahead, int service, Index begin, Index end, const double* x,
                                   double* y, bool with_block_above) const {
  const Index per_server = block_size(ahead) / m_;
  const double* xb = x + offset(ahead);
  const double* xs = xb + service * per_server;
  double* ys = y + offset(ahead) + service * per_server;
  const double* d = diagonal_.data() + offset(ahead) + service * per_server;
  for (Index c = begin; c < end; ++c) ys[c] = d[c] * xs[c];
  for (int from = 0; from < m_; ++from) {
    const double rate = service_(from, service);
    if (from == service || rate == 0) continue;
    const double* source = xb + from * per_server;
    for (Index c = begin; c < end; ++c) ys[c] += rate * source[c];
  }
  // One more page ahead, and the head's service ends: the next page starts with beta, and its clock
  // (the head's of the block above) goes.
  if (with_block_above) {
    const double* up = x + offset(ahead + 1);
    for (int from = 0; from < m_; ++from) {
      const double rate = service_exit_(from) * service_start_(service);
      if (rate == 0) continue;
      for (int head = 0; head < r_; ++head) {
        const double* source = up + (from * r_ + head) * per_server;
        for (Index c = begin; c < end; ++c) ys[c] += rate * source[c];
      }
    }
  }
  // Its own clock moves (it expires out of the chain).
  for (Index o = begin / r_; o < end / r_; ++o)
    for (int from = 0; from < r_; ++from)
      for (int to = 0; to < r_; ++to)
        if (to != from && clock_(from, to) != 0)
          ys[o * r_ + to] += clock_(from, to) * xs[o * r_ + from];
}

void TaggedPageOperator::clock_terms(int ahead, int service, const double* x, double* y) const {
  // The clocks ahead move, or expire into the block below.
  const Index per_server = block_size(ahead) / m_;
  ClockKernel(clock_, clock_exit_)
      .apply(x + offset(ahead) + service * per_server, y + offset(ahead) + service * per_server,
             y + offset(ahead - 1) + service * (per_server / r_), ahead, r_);
}

void TaggedPageOperator::add_leaving(int ahead, const double* x_below, double* r) const {
  const Index per_server = block_size(ahead) / m_, below = per_server / r_;
  // The next page's service starts with beta: the states below weighted by it, whatever the
  // server's phase was.
  Eigen::VectorXd started = Eigen::VectorXd::Zero(below);
  for (int to = 0; to < m_; ++to)
    started += service_start_(to) * Eigen::Map<const Eigen::VectorXd>(x_below + to * below, below);
  for (int s = 0; s < m_; ++s) {
    double* rs = r + s * per_server;
    for (int head = 0; head < r_; ++head)
      Eigen::Map<Eigen::VectorXd>(rs + head * below, below) += service_exit_(s) * started;
    if (ahead >= 1)
      ClockKernel(clock_, clock_exit_).gather_down(x_below + s * below, rs, ahead, r_);
  }
}

}  // namespace crawlq::analytic
