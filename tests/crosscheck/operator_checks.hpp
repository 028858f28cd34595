#pragma once
// The matrix-free generator (analytic/stationary/generator_operator.hpp) held against its two
// references: the brute force's dense generator, written state by state from the model's rules, and
// the Lemma's assembled blocks. Each comparison applies both to the same random vector and gives
// the gap.
#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "analytic/stationary/controlled_arrivals.hpp"
#include "analytic/stationary/generator_blocks.hpp"
#include "analytic/stationary/generator_operator.hpp"
#include "tests/crosscheck/brute_force_chain.hpp"

namespace crawlq::crosscheck {

// Uniform on [0, 1): every state weighted, none alike, the same for the same seed.
Eigen::VectorXd random_vector(Eigen::Index n, std::uint64_t seed);

// Largest |a - b| over the largest |b|: the operator sums in another order than a matrix product.
double relative_gap(const Eigen::VectorXd& a, const Eigen::VectorXd& b);

// Where the engine numbers each brute-force state: with memory the mode in force is part of the
// environment (mode-major).
std::vector<Eigen::Index> engine_numbering(const BruteForceChain& chain,
                                           const analytic::StateSpace& space,
                                           const analytic::ControlledArrivals& arrivals);

struct BruteForceGaps {
  double product = 0;   // x Q, relative_gap
  double diagonal = 0;  // each state's outflow, over the largest
};
// x Q of the operator against x times the brute force's generator, x random from `seed`.
BruteForceGaps gaps_to_brute_force(const BruteForceChain& chain,
                                   const analytic::ControlledArrivals& arrivals,
                                   const analytic::GeneratorOperator& q, std::uint64_t seed);

struct AssembledGaps {
  double product = 0;                // x Q on one thread against x times the assembled blocks
  bool same_for_any_threads = true;  // bit for bit on 2, 3 and 8 threads
};
AssembledGaps gaps_to_assembled(const analytic::GeneratorBlocks& blocks,
                                const analytic::GeneratorOperator& q, std::uint64_t seed);

// The forward sweep's residual: z from (D + L) z = r, with D + L taken from the assembled blocks
// (the diagonal and the moves up from lower levels) and the pinned state's row the identity.
struct SweepGaps {
  double residual = 0;
  bool same_for_any_threads = true;
};
SweepGaps forward_sweep_gaps(const analytic::GeneratorBlocks& blocks,
                             const analytic::GeneratorOperator& q, std::uint64_t seed);

// The symmetric sweep's residual: z from M z = r, M = (D + L) D^-1 (D + U) written from the
// assembled blocks and the model's rules: L the moves up and the phase moves to a later block of a
// level, U the phase moves to an earlier block, the services ending one level up (the blocks of the
// same model with its clocks paused) and the expiries of each state's last
// swept_expiring_clocks clocks, one clock at a time; the pinned state's row pinned_scale z = r.
SweepGaps symmetric_sweep_gaps(const analytic::GeneratorBlocks& blocks,
                               const analytic::GeneratorOperator& q, std::uint64_t seed,
                               Eigen::Index pinned, double pinned_scale);

// The largest number of leading clocks that split a level's blocks into pieces, over all levels.
int most_split_clocks(const analytic::GeneratorOperator& q);

}  // namespace crawlq::crosscheck
