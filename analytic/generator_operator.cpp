#include "analytic/controlled_arrivals.hpp"
#include "analytic/generator_operator.hpp"
#include "analytic/clock_kernel.hpp"

#include <algorithm>

#include "model/admission.hpp"

namespace crawlq::analytic {

namespace {

using Index = Eigen::Index;

// Below this many states an operator application is not worth waking a second thread for.
constexpr Index kParallelGrain = Index{1} << 14;

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
      for (Index i = 0; i < previous.size(); ++i) next.segment(i * r_, r_) = previous(i) * gamma.transpose();
      new_clocks_.push_back(std::move(next));
    }
  } else {
    clock_ = Eigen::MatrixXd::Zero(1, 1);
    clock_exit_ = Eigen::VectorXd::Zero(1);
    new_clocks_.assign(capacity + 1, Eigen::VectorXd::Ones(1));
  }

  diagonal_.resize(space_.size());
  Eigen::VectorXd clock_diagonal = Eigen::VectorXd::Zero(1);  // sum of the waiting clocks' Gamma(c, c)
  for (int level = 0; level <= capacity; ++level) {
    const ArrivalRows& rows = arrivals.at_level(level);
    std::vector<Eigen::MatrixXd> grouped = arrivals.by_admitted(level);
    // D_0 and the batches lost whole, summed in batch order (as the snapshots of solve were taken).
    Eigen::MatrixXd stay = rows.d_k(0);
    for (int k = 1; k <= rows.max_batch(); ++k)
      if (model::accepted_pages(model.admission, level, capacity, k) == 0) stay += rows.d_k(k);
    longest_batch_ = std::max(longest_batch_, rows.max_batch());
    Level l;
    l.admitting.assign(std::make_move_iterator(grouped.begin() + 1), std::make_move_iterator(grouped.end()));
    l.stay_off_diagonal = stay;
    l.stay_off_diagonal.diagonal().setZero();
    levels_.push_back(std::move(l));

    // diag(Q) = D(w, w) + S(s, s) + sum of Gamma(c_k, c_k), state by state in the level's order.
    double* d = diagonal_.data() + space_.level_offset(level);
    if (level == 0) {
      for (int a = 0; a < w_; ++a) d[a] = stay(a, a);
      continue;
    }
    if (level >= 2) {
      Eigen::VectorXd longer(clock_diagonal.size() * r_);
      for (Index c = 0; c < longer.size(); ++c) longer(c) = clock_diagonal(c / r_) + clock_(c % r_, c % r_);
      clock_diagonal = std::move(longer);
    }
    const Index clocks = clock_diagonal.size();
    for (int a = 0; a < w_; ++a)
      for (int s = 0; s < m_; ++s)
        for (Index c = 0; c < clocks; ++c) d[(a * m_ + s) * clocks + c] = stay(a, a) + service_(s, s) + clock_diagonal(c);
  }
}

Eigen::VectorXd GeneratorOperator::apply(const Eigen::VectorXd& x, int threads) const {
  Eigen::VectorXd y(space_.size());
  apply(x.data(), y.data(), threads);
  return y;
}

// Every entry of y is owned by one (arrival phase, service phase) block of its level, and a block's
// entries only ever gather from x: the W M blocks are independent tasks, one parallel region in all.
void GeneratorOperator::apply(const double* x, double* y, int threads) const {
  const int blocks = w_ * m_;
  if (arrivals_.remembers()) {
    // A page leaving switches the mode, so a block's expiries land in another block one level
    // down: level by level, every block below is started before any lands there.
    for (int level = 1; level <= space_.capacity(); ++level)
      for (int block = 0; block < blocks; ++block) apply_block(level, block, x, y);
    apply_level_zero(x, y);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static) if (space_.size() >= kParallelGrain)
  for (int block = 0; block < blocks; ++block)
    for (int level = 1; level <= space_.capacity(); ++level) apply_block(level, block, x, y);
  apply_level_zero(x, y);
}

void GeneratorOperator::apply_level_zero(const double* x, double* y) const {
  const Eigen::Map<const Eigen::RowVectorXd> x0(x, w_);
  Eigen::Map<Eigen::RowVectorXd> y0(y, w_);
  y0 = x0.cwiseProduct(diagonal_.head(w_).transpose()) + x0 * levels_[0].stay_off_diagonal;
  if (space_.capacity() == 0) return;
  // Service ends at level 1 and the system empties.
  const double* x1 = x + space_.level_offset(1);
  for (int a = 0; a < w_; ++a)
    for (int s = 0; s < m_; ++s) y0(arrivals_.entered_phase(0, a)) += x1[a * m_ + s] * service_exit_(s);
}

// Built for AVX2 too, picked at run time: the other third of a solve. No sum changes order.
__attribute__((target_clones("avx2", "default"))) void GeneratorOperator::apply_block(int level, int block, const double* x, double* y) const {
  const int arrival = block / m_, service = block % m_;
  const Index clocks = space_.level_size(level) / (w_ * m_);  // R^(level-1) waiting clocks' phases
  const Index offset = space_.level_offset(level);
  const double* xb = x + offset + block * clocks;
  double* yb = y + offset + block * clocks;
  const double* d = diagonal_.data() + offset + block * clocks;
  for (Index c = 0; c < clocks; ++c) yb[c] = d[c] * xb[c];

  // The arrival phase moves with no page admitted; the service phase moves.
  const Eigen::MatrixXd& stay = levels_[level].stay_off_diagonal;
  for (int from = 0; from < w_; ++from) {
    const double rate = stay(from, arrival);
    if (from == arrival || rate == 0) continue;
    const double* source = x + offset + (from * m_ + service) * clocks;
    for (Index c = 0; c < clocks; ++c) yb[c] += rate * source[c];
  }
  for (int from = 0; from < m_; ++from) {
    const double rate = service_(from, service);
    if (from == service || rate == 0) continue;
    const double* source = x + offset + (arrival * m_ + from) * clocks;
    for (Index c = 0; c < clocks; ++c) yb[c] += rate * source[c];
  }

  // Service ends one level up: the head page there starts service (beta) and its clock goes. With
  // memory, the environment phases above that the controller sends to this one.
  if (level < space_.capacity()) {
    const Index up = space_.level_offset(level + 1), up_clocks = clocks * r_;
    for (int above = 0; above < w_; ++above) {
      if (arrivals_.entered_phase(level, above) != arrival) continue;
      for (int from = 0; from < m_; ++from) {
        const double rate = service_exit_(from) * service_start_(service);
        if (rate == 0) continue;
        for (int head = 0; head < r_; ++head) {
          const double* source = x + up + (above * m_ + from) * up_clocks + head * clocks;
          for (Index c = 0; c < clocks; ++c) yb[c] += rate * source[c];
        }
      }
    }
  }

  // Batches that admitted a pages from level - a: the new pages' clocks (gamma each) at the tail.
  for (int a = 1; a < level && a <= longest_batch_; ++a) {
    const auto& from_level = levels_[level - a].admitting;
    if (a > static_cast<int>(from_level.size())) continue;
    const Eigen::MatrixXd& admitting = from_level[a - 1];
    const Eigen::VectorXd& fresh = new_clocks_[a];
    const Index width = fresh.size(), old_clocks = clocks / width;
    const Index source_offset = space_.level_offset(level - a);
    for (int from = 0; from < w_; ++from) {
      const double rate = admitting(from, arrival);
      if (rate == 0) continue;
      const double* source = x + source_offset + (from * m_ + service) * old_clocks;
      for (Index c = 0; c < old_clocks; ++c) {
        const double flow = rate * source[c];
        double* target = yb + c * width;
        for (Index j = 0; j < width; ++j) target[j] += flow * fresh(j);
      }
    }
  }
  // A batch into the empty system: its first page starts service (beta), the rest wait.
  if (level <= static_cast<int>(levels_[0].admitting.size())) {
    const Eigen::RowVectorXd flow = Eigen::Map<const Eigen::RowVectorXd>(x, w_) * levels_[0].admitting[level - 1];
    const double rate = flow(arrival) * service_start_(service);
    const Eigen::VectorXd& waiting = new_clocks_[level - 1];
    if (rate != 0)
      for (Index c = 0; c < clocks; ++c) yb[c] += rate * waiting(c);
  }

  // Waiting clocks change phase (this block) or expire (the same block one level down, which was
  // started before this level's turn).
  if (level >= 2) {
    const int block_below = arrivals_.entered_phase(level - 1, arrival) * m_ + service;
    const Index below = space_.level_offset(level - 1) + block_below * (clocks / r_);
    ClockKernel(clock_, clock_exit_).apply(xb, yb, y + below, level - 1);
  }
}

}  // namespace crawlq::analytic
