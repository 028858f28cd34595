#include "tests/crosscheck/operator_checks.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace crawlq::crosscheck {

Eigen::VectorXd random_vector(Eigen::Index n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Eigen::VectorXd x(n);
  for (double& v : x) v = uniform(engine);
  return x;
}

double relative_gap(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff());
}

std::vector<Eigen::Index> engine_numbering(const BruteForceChain& chain,
                                           const analytic::StateSpace& space,
                                           const analytic::ControlledArrivals& arrivals) {
  std::vector<Eigen::Index> index(static_cast<std::size_t>(chain.size()));
  for (Eigen::Index s = 0; s < chain.size(); ++s) {
    const ChainState& c = chain.states()[static_cast<std::size_t>(s)];
    index[static_cast<std::size_t>(s)] =
        space.index({.level = c.level,
                     .arrival_phase = arrivals.environment_phase(c.robots, c.arrival_phase),
                     .service_phase = c.service_phase,
                     .clock_phases = c.clocks});
  }
  return index;
}

BruteForceGaps gaps_to_brute_force(const BruteForceChain& chain,
                                   const analytic::ControlledArrivals& arrivals,
                                   const analytic::GeneratorOperator& q, std::uint64_t seed) {
  const Eigen::Index n = chain.size();
  const std::vector<Eigen::Index> engine = engine_numbering(chain, q.space(), arrivals);
  const auto at = [&](Eigen::Index s) { return engine[static_cast<std::size_t>(s)]; };
  const Eigen::VectorXd x_brute = random_vector(n, seed);
  Eigen::VectorXd x_engine(n);
  for (Eigen::Index s = 0; s < n; ++s) x_engine(at(s)) = x_brute(s);
  const Eigen::VectorXd y_brute = (x_brute.transpose() * chain.generator()).transpose();
  const Eigen::VectorXd y_engine = q.apply(x_engine);
  Eigen::VectorXd y_engine_in_brute_order(n);
  for (Eigen::Index s = 0; s < n; ++s) y_engine_in_brute_order(s) = y_engine(at(s));
  double worst_diagonal = 0;
  const Eigen::VectorXd diagonal = q.diagonal();
  for (Eigen::Index s = 0; s < n; ++s)
    worst_diagonal = std::max(worst_diagonal, std::abs(diagonal(at(s)) - chain.generator()(s, s)));
  return {.product = relative_gap(y_engine_in_brute_order, y_brute),
          .diagonal = worst_diagonal /
                      std::max(1e-300, chain.generator().diagonal().cwiseAbs().maxCoeff())};
}

AssembledGaps gaps_to_assembled(const analytic::GeneratorBlocks& blocks,
                                const analytic::GeneratorOperator& q, std::uint64_t seed) {
  const Eigen::VectorXd x = random_vector(q.space().size(), seed);
  const Eigen::VectorXd assembled = (x.transpose() * blocks.assemble()).transpose();
  const Eigen::VectorXd one_thread = q.apply(x, 1);
  AssembledGaps gaps{.product = relative_gap(one_thread, assembled)};
  for (int threads : {2, 3, 8})
    gaps.same_for_any_threads =
        gaps.same_for_any_threads && (q.apply(x, threads).array() == one_thread.array()).all();
  return gaps;
}

SweepGaps forward_sweep_gaps(const analytic::GeneratorBlocks& blocks,
                             const analytic::GeneratorOperator& q, std::uint64_t seed) {
  const analytic::StateSpace& space = q.space();
  const Eigen::VectorXd r = random_vector(space.size(), seed);
  const Eigen::Index pinned = 1;
  Eigen::VectorXd z(space.size());
  q.forward_sweep(r.data(), z.data(), pinned, 1.0, 1);
  std::vector<int> level_of(static_cast<std::size_t>(space.size()));
  for (int level = 0; level <= space.capacity(); ++level)
    for (Eigen::Index i = space.level_offset(level);
         i < space.level_offset(level) + space.level_size(level); ++i)
      level_of[static_cast<std::size_t>(i)] = level;
  const auto assembled = blocks.assemble();
  Eigen::VectorXd lower_times_z = Eigen::VectorXd::Zero(space.size());
  for (Eigen::Index i = 0; i < assembled.outerSize(); ++i)
    for (analytic::SparseMatrix::InnerIterator it(assembled, i); it; ++it)
      if (it.col() == i ||
          level_of[static_cast<std::size_t>(i)] < level_of[static_cast<std::size_t>(it.col())])
        lower_times_z(it.col()) += it.value() * z(i);
  lower_times_z(pinned) = z(pinned);
  SweepGaps gaps{.residual = relative_gap(lower_times_z, r)};
  for (int threads : {2, 3}) {
    Eigen::VectorXd shared(space.size());
    q.forward_sweep(r.data(), shared.data(), pinned, 1.0, threads);
    gaps.same_for_any_threads = gaps.same_for_any_threads && (shared.array() == z.array()).all();
  }
  return gaps;
}

namespace {
// Where a state lies: its level, its (arrival, service) block (the arrival phase at level 0) and
// its clocks' combination.
struct Place {
  int level = 0;
  Eigen::Index block = 0, clocks = 0;
};

std::vector<Place> places(const analytic::StateSpace& space) {
  std::vector<Place> where(static_cast<std::size_t>(space.size()));
  const Eigen::Index blocks = space.arrival_phases() * space.service_phases();
  for (int level = 0; level <= space.capacity(); ++level) {
    const Eigen::Index offset = space.level_offset(level), size = space.level_size(level);
    const Eigen::Index clocks = level == 0 ? 1 : size / blocks;
    for (Eigen::Index i = 0; i < size; ++i)
      where[static_cast<std::size_t>(offset + i)] = {level, i / clocks, i % clocks};
  }
  return where;
}
}  // namespace

SweepGaps symmetric_sweep_gaps(const analytic::GeneratorBlocks& blocks,
                               const analytic::GeneratorOperator& q, std::uint64_t seed,
                               Eigen::Index pinned, double pinned_scale) {
  const analytic::StateSpace& space = q.space();
  const Eigen::Index n = space.size();
  const Eigen::VectorXd r = random_vector(n, seed);
  Eigen::VectorXd z(n);
  q.symmetric_sweep(r.data(), z.data(), pinned, pinned_scale, 1);
  const std::vector<Place> where = places(space);
  const auto at = [&](Eigen::Index i) { return where[static_cast<std::size_t>(i)]; };

  // (i, j, rate) of Q: row j of Q^T gathers rate times entry i.
  struct Move {
    Eigen::Index from, to;
    double rate;
  };
  std::vector<Move> lower, upper;
  const auto assembled = blocks.assemble();
  for (Eigen::Index i = 0; i < assembled.outerSize(); ++i)
    for (analytic::SparseMatrix::InnerIterator it(assembled, i); it; ++it) {
      const Eigen::Index j = it.col();
      if (j == i || j == pinned) continue;
      const Place from = at(i), to = at(j);
      if (from.level < to.level) {
        lower.push_back({i, j, it.value()});
      } else if (from.level == to.level && from.clocks == to.clocks) {
        (from.block < to.block ? lower : upper).push_back({i, j, it.value()});
      }
    }
  // Services ending one level up: the same chain with its clocks paused moves down no other way.
  model::Model paused_model = blocks.model();
  if (paused_model.obsolescence) paused_model.obsolescence = paused_model.obsolescence->paused();
  const analytic::GeneratorBlocks paused(paused_model, blocks.policy());
  const auto services = paused.assemble();
  for (Eigen::Index i = 0; i < services.outerSize(); ++i)
    for (analytic::SparseMatrix::InnerIterator it(services, i); it; ++it)
      if (it.col() != pinned && at(i).level > at(it.col()).level)
        upper.push_back({i, it.col(), it.value()});
  // Expiries of the last clocks, one clock at a time (two clocks in the same phase leave into the
  // same state, and only one of them may be swept).
  if (blocks.model().obsolescence) {
    const Eigen::VectorXd exits = blocks.model().obsolescence->exit_rates();
    for (Eigen::Index i = 0; i < n; ++i) {
      const analytic::StateSpace::State state = space.state(i);
      const int waiting = static_cast<int>(state.clock_phases.size());
      const int swept = waiting == 0 ? 0 : q.swept_expiring_clocks(state.level);
      for (int k = waiting - swept; k < waiting; ++k) {
        analytic::StateSpace::State below = state;
        below.level -= 1;
        below.arrival_phase = blocks.arrivals().entered_phase(below.level, state.arrival_phase);
        below.clock_phases.erase(below.clock_phases.begin() + k);
        const Eigen::Index j = space.index(below);
        if (j != pinned)
          upper.push_back({i, j, exits(state.clock_phases[static_cast<std::size_t>(k)])});
      }
    }
  }

  Eigen::VectorXd diagonal = q.diagonal();
  diagonal(pinned) = pinned_scale;
  Eigen::VectorXd v = diagonal.cwiseProduct(z);  // (D + U) z
  for (const Move& move : upper) v(move.to) += move.rate * z(move.from);
  v = v.cwiseQuotient(diagonal);
  Eigen::VectorXd w = diagonal.cwiseProduct(v);  // (D + L) D^-1 (D + U) z
  for (const Move& move : lower) w(move.to) += move.rate * v(move.from);
  SweepGaps gaps{.residual = relative_gap(w, r)};
  for (int threads : {2, 3}) {
    Eigen::VectorXd shared(n);
    q.symmetric_sweep(r.data(), shared.data(), pinned, pinned_scale, threads);
    gaps.same_for_any_threads = gaps.same_for_any_threads && (shared.array() == z.array()).all();
  }
  return gaps;
}

int most_split_clocks(const analytic::GeneratorOperator& q) {
  int most = 0;
  for (int level = 1; level <= q.space().capacity(); ++level)
    most = std::max(most, q.split_clocks(level));
  return most;
}

}  // namespace crawlq::crosscheck
