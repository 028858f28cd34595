#include "analytic/stationary_solver.hpp"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>

#include "analytic/block_recursive_solver.hpp"
#include "analytic/generator_operator.hpp"
#include "analytic/qbd_solver.hpp"
#include "analytic/iterative_solver.hpp"
#include "analytic/sparse_lu_solver.hpp"

namespace crawlq::analytic {

std::string StationarySolver::refusal(const GeneratorBlocks&) const { return {}; }

namespace {
// ||p Q||_1 from Q's factors: the generator is never assembled for it, and the direct solvers, which
// use the blocks, are checked by code that does not.
double residual(const GeneratorBlocks& blocks, const Eigen::VectorXd& p, int threads) {
  return GeneratorOperator(blocks.model(), blocks.policy()).apply(p, threads).lpNorm<1>();
}
}  // namespace

std::unique_ptr<StationarySolver> make_solver(Method method, const GeneratorBlocks& blocks,
                                              const SolveOptions& options) {
  BlockRecursionCache* cache = options.cache;
  IterativeOptions iterative;
  if (options.warm_start) iterative.initial_guess = *options.warm_start;
  iterative.threads = options.threads;
  switch (method) {
    case Method::kBlockRecursion:
      return std::make_unique<BlockRecursiveSolver>(cache);
    case Method::kQbd:
      return std::make_unique<QbdSolver>();
    case Method::kSparseLu:
      return std::make_unique<SparseLuSolver>();
    case Method::kIterative:
      return std::make_unique<IterativeSolver>(iterative);
    case Method::kAuto:
      break;
  }
  // Small chains: the block recursion (direct; beats SparseLU at every size, and with single arrivals
  // it skips the zero blocks and does the work of the QBD form). From a few thousand states the
  // iterative solver is faster by orders of magnitude (benchmarks/solve_by_capacity).
  if (blocks.space().size() > 2000) return std::make_unique<IterativeSolver>(iterative);
  return std::make_unique<BlockRecursiveSolver>(cache);
}

StationaryResult solve_stationary(const GeneratorBlocks& blocks, Method method, const SolveOptions& options) {
  const auto solver = make_solver(method, blocks, options);
  if (const std::string why = solver->refusal(blocks); !why.empty())
    throw std::invalid_argument(fmt::format("method {}: {}", method_name(solver->method()), why));
  const auto start = std::chrono::steady_clock::now();
  StationaryResult result = solver->solve(blocks);
  StationarySummary& summary = result.summary;
  summary.method = solver->method();
  Eigen::VectorXd& p = result.probabilities;
  if (summary.status == SolverStatus::kConverged) {
    // What the math promises: non-negative, sums to one, pQ = 0. Round-off may leave tiny negative
    // entries; anything beyond that is a failure, not something to hide.
    const double most_negative = p.minCoeff();
    if (!p.allFinite() || most_negative < -1e-10) {
      summary.status = SolverStatus::kFailed;
      summary.message = fmt::format("stationary vector has a negative entry {}", most_negative);
    } else {
      p = p.cwiseMax(0.0);
      p /= p.sum();
      summary.residual = residual(blocks, p, std::max(1, options.threads));
    }
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

const char* method_name(Method method) {
  switch (method) {
    case Method::kAuto: return "auto";
    case Method::kBlockRecursion: return "block-recursion";
    case Method::kQbd: return "qbd";
    case Method::kSparseLu: return "sparse-lu";
    case Method::kIterative: return "iterative";
  }
  return "?";
}

Method parse_method(const std::string& name) {
  for (Method m : {Method::kAuto, Method::kBlockRecursion, Method::kQbd, Method::kSparseLu, Method::kIterative})
    if (name == method_name(m)) return m;
  throw std::invalid_argument(fmt::format(
      "unknown method '{}' (known: auto, block-recursion, qbd, sparse-lu, iterative)", name));
}

}  // namespace crawlq::analytic
