#pragma once
// Which stationary solver `auto` runs, decided from the chain's shape and size before any work, so
// that it never picks a method that will not converge in time. The block recursion's dense work is
// the cubes of the level sizes; BiCGSTAB's is its iterations times a product with Q, and a Krylov
// solve needs at least as many iterations as the steps a probability must travel through the
// chain's graph: an Erlang-k service is a path of k phases (measured on teaching-two-robots: 34
// iterations at k = 10, 629 at k = 100, 2,513 at k = 300, none within 5,000 at k = 1,000, where
// sparse LU takes 0.03 s).
#include "analytic/stationary/stationary_solver.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

// The most jumps any phase of (beta, S) needs to reach absorption by its fastest route: 1 for an
// exponential or hyperexponential law, k for Erlang-k.
int absorption_depth(const model::PhaseType& law);
// The steps a Krylov solve must cross in the chain's graph: the buffer's levels, the service and
// clock laws' depths, and the arrival phases' distances (under any mode).
int krylov_reach(const model::Model& model);

// The sum over levels of (level size)^3: the block recursion's dense work.
double recursion_work(const model::Model& model);
// BiCGSTAB's expected iterations times the work of a product with Q, in the units of
// recursion_work (one product costs about states x (W + M + R) multiply-adds, five times the
// recursion's dense flops by the clock).
double iterative_work(const model::Model& model);
// Iterations BiCGSTAB takes on the paper's chains (28-60, iterative_solver.hpp), and per step of
// krylov_reach on long chains of phases (3.4 to 8.4 measured from k = 10 to 300: the low end, so
// that the estimate never favours the direct methods by itself).
inline constexpr double kTypicalIterations = 60;
inline constexpr double kIterationsPerStep = 4;

// What kAuto picks: the block recursion while the chain is small or its levels are; sparse LU where
// BiCGSTAB would take more work than a direct factorisation (long chains of phases); the iterative
// solver beyond.
Method automatic_method(const model::Model& model);
inline constexpr const char* kAutomaticRule =
    "block-recursion up to 2000 states or while the levels stay small, as in a long buffer; "
    "sparse-lu "
    "where BiCGSTAB would need more work than a direct solve, as with an Erlang law of many "
    "phases; "
    "iterative beyond";
// The sum over levels of (level size)^3 up to which the block recursion is picked whatever the
// states.
inline constexpr double kLargestRecursionWork = 1e8;

}  // namespace crawlq::analytic
