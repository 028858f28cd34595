#include "analytic/stationary/solver_registry.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "analytic/stationary/block_recursive_solver.hpp"
#include "analytic/stationary/iterative_solver.hpp"
#include "analytic/stationary/method_choice.hpp"
#include "analytic/stationary/qbd_solver.hpp"
#include "analytic/stationary/sparse_lu_solver.hpp"

namespace crawlq::analytic {

namespace {

std::string takes_any_model(const model::Model&) { return {}; }

std::unique_ptr<StationarySolver> make_iterative(const SolveOptions& options) {
  IterativeOptions iterative;
  if (options.warm_start) iterative.initial_guess = *options.warm_start;
  iterative.threads = options.threads;
  iterative.stop = options.stop;
  iterative.preconditioner = options.preconditioner;
  if (options.max_iterations > 0) iterative.max_iterations = options.max_iterations;
  return std::make_unique<IterativeSolver>(iterative);
}

}  // namespace

const std::vector<SolverRegistration>& registered_solvers() {
  static const std::vector<SolverRegistration> solvers{
      {Method::kBlockRecursion, "block-recursion", "section 3",
       [](const SolveOptions& o) -> std::unique_ptr<StationarySolver> {
         return std::make_unique<BlockRecursiveSolver>(o.cache);
       },
       block_recursion_memory, takes_any_model},
      {Method::kQbd, "qbd", "section 6, single arrivals",
       [](const SolveOptions&) -> std::unique_ptr<StationarySolver> {
         return std::make_unique<QbdSolver>();
       },
       block_recursion_memory, [](const model::Model& m) { return QbdSolver::refusal(m); }},
      {Method::kSparseLu, "sparse-lu", "direct, small chains",
       [](const SolveOptions&) -> std::unique_ptr<StationarySolver> {
         return std::make_unique<SparseLuSolver>();
       },
       sparse_lu_memory, takes_any_model},
      {Method::kIterative, "iterative",
       "BiCGSTAB, the generator applied from its factors, never stored: K = 20 in well under a minute",
       make_iterative, iterative_memory, takes_any_model},
  };
  return solvers;
}

const SolverRegistration& registration(Method method, const model::Model& model) {
  if (method == Method::kAuto) method = automatic_method(model);
  for (const auto& r : registered_solvers())
    if (r.method == method) return r;
  throw std::logic_error("a stationary solver without a registration");
}

std::string method_help() {
  std::string help = fmt::format("auto ({})", kAutomaticRule);
  for (const auto& r : registered_solvers()) help += fmt::format(" | {} ({})", r.name, r.help);
  return help;
}

const char* method_name(Method method) {
  if (method == Method::kAuto) return "auto";
  for (const auto& r : registered_solvers())
    if (r.method == method) return r.name.data();
  return "?";
}

Method parse_method(const std::string& name) {
  if (name == "auto") return Method::kAuto;
  std::string known = "auto";
  for (const auto& r : registered_solvers()) {
    if (name == r.name) return r.method;
    known += fmt::format(", {}", r.name);
  }
  throw std::invalid_argument(fmt::format("unknown method '{}' (known: {})", name, known));
}

std::unique_ptr<StationarySolver> make_solver(Method method, const GeneratorBlocks& blocks,
                                              const SolveOptions& options) {
  return registration(method, blocks.model()).make(options);
}

}  // namespace crawlq::analytic
