#include "analytic/sojourn/tagged_page_operator.hpp"

#include "analytic/stationary/clock_kernel.hpp"

namespace crawlq::analytic {

namespace {

using Index = Eigen::Index;

// Below this many states a block's service phases are not worth a second thread.
constexpr Index kTaggedParallelGrain = Index{1} << 14;

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
  in_service_row(x, y, most_ahead >= 0);
  const bool parallel =
      threads > 1 && most_ahead >= 0 && block_size(most_ahead) >= kTaggedParallelGrain;
#pragma omp parallel num_threads(threads) if (parallel)
  for (int ahead = 0; ahead <= most_ahead; ++ahead) {
    // A block's pieces write their own phase of it and of the block below (started one step
    // before: the loop's barrier orders them).
#pragma omp for schedule(static)
    for (int s = 0; s < m_; ++s) waiting_piece(ahead, s, x, y, ahead < most_ahead);
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

void TaggedPageOperator::waiting_piece(int ahead, int service, const double* x, double* y,
                                       bool with_block_above) const {
  const Index per_server = block_size(ahead) / m_;
  const double* xb = x + offset(ahead);
  const double* xs = xb + service * per_server;
  double* ys = y + offset(ahead) + service * per_server;
  const double* d = diagonal_.data() + offset(ahead) + service * per_server;
  for (Index c = 0; c < per_server; ++c) ys[c] = d[c] * xs[c];
  for (int from = 0; from < m_; ++from) {
    const double rate = service_(from, service);
    if (from == service || rate == 0) continue;
    const double* source = xb + from * per_server;
    for (Index c = 0; c < per_server; ++c) ys[c] += rate * source[c];
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
        for (Index c = 0; c < per_server; ++c) ys[c] += rate * source[c];
      }
    }
  }
  // Its own clock moves (it expires out of the chain); the clocks ahead move or expire into the
  // block below.
  for (Index o = 0; o < per_server / r_; ++o)
    for (int from = 0; from < r_; ++from)
      for (int to = 0; to < r_; ++to)
        if (to != from && clock_(from, to) != 0)
          ys[o * r_ + to] += clock_(from, to) * xs[o * r_ + from];
  if (ahead >= 1)
    ClockKernel(clock_, clock_exit_)
        .apply(xs, ys, y + offset(ahead - 1) + service * (per_server / r_), ahead, r_);
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
