#include "analytic/stationary/stationary_solver.hpp"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>

#include "analytic/adaptive_threads.hpp"
#include "analytic/stationary/generator_operator.hpp"
#include "analytic/stationary/memory_estimate.hpp"

namespace crawlq::analytic {

std::string StationarySolver::refusal(const GeneratorBlocks&) const { return {}; }

namespace {
// ||p Q||_1 from Q's factors: the generator is never assembled for it, and the direct solvers,
// which use the blocks, are checked by code that does not. On the threads the solve's verdict left:
// a product on two threads with one core held took four times one thread's (K = 16).
double residual(const GeneratorBlocks& blocks, const Eigen::VectorXd& p, int threads) {
  return GeneratorOperator(blocks.model(), blocks.arrivals())
      .apply(p, threads_for_region(threads))
      .lpNorm<1>();
}
}  // namespace

bool accept_stationary(Eigen::VectorXd& p, StationarySummary& summary) {
  // Round-off may leave tiny negative entries; anything beyond that is a failure, not something to
  // hide.
  const double most_negative = p.minCoeff();
  if (!p.allFinite() || most_negative < -1e-10) {
    summary.status = SolverStatus::kFailed;
    summary.message = fmt::format("stationary vector has a negative entry {}", most_negative);
    return false;
  }
  p = p.cwiseMax(0.0);
  p /= p.sum();
  return true;
}

namespace {
StationaryResult solve_once(const GeneratorBlocks& blocks, Method method,
                            const SolveOptions& options) {
  const auto solver = make_solver(method, blocks, options);
  if (const std::string why = solver->refusal(blocks); !why.empty())
    throw std::invalid_argument(fmt::format("method {}: {}", method_name(solver->method()), why));
  const auto start = std::chrono::steady_clock::now();
  StationaryResult result = solver->solve(blocks);
  StationarySummary& summary = result.summary;
  summary.method = solver->method();
  Eigen::VectorXd& p = result.probabilities;
  if (summary.status == SolverStatus::kConverged && accept_stationary(p, summary))
    summary.residual = residual(blocks, p, std::max(1, options.threads));
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}
}  // namespace

Method direct_fallback(const model::Model& model) {
  for (Method direct : {Method::kSparseLu, Method::kBlockRecursion})
    if (estimate_memory(model, direct).bytes <= available_memory_bytes()) return direct;
  return Method::kAuto;
}

StationaryResult solve_stationary(const GeneratorBlocks& blocks, Method method,
                                  const SolveOptions& options) {
  StationaryResult result = solve_once(blocks, method, options);
  const bool cancelled = options.stop && options.stop->load();
  if (method != Method::kAuto || result.summary.method != Method::kIterative ||
      result.summary.status == SolverStatus::kConverged || cancelled)
    return result;
  // auto's estimate of BiCGSTAB's iterations (method_choice.hpp) was wrong for this chain: a direct
  // method answers where one fits.
  const Method direct = direct_fallback(blocks.model());
  if (direct == Method::kAuto) return result;
  StationaryResult again = solve_once(blocks, direct, options);
  again.summary.fallback =
      fmt::format("auto: {}; then {}", result.summary.message, method_name(direct));
  again.summary.seconds += result.summary.seconds;
  return again;
}

}  // namespace crawlq::analytic
