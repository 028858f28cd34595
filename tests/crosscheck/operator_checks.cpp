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
  for (Eigen::Index s = 0; s < n; ++s)
    worst_diagonal =
        std::max(worst_diagonal, std::abs(q.diagonal()(at(s)) - chain.generator()(s, s)));
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

int most_split_clocks(const analytic::GeneratorOperator& q) {
  int most = 0;
  for (int level = 1; level <= q.space().capacity(); ++level)
    most = std::max(most, q.split_clocks(level));
  return most;
}

}  // namespace crawlq::crosscheck
