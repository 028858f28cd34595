#pragma once
// Every stationary solver, registered once: its name on the command line, what --help says of it,
// how it is made, what it needs in memory, and what it refuses from the model alone. The command
// line's --method, method_name/parse_method, memory checks and the tests' loops over methods all
// read this list, so a new solver is its own file, an enum value and one entry here.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analytic/stationary/solver_memory.hpp"
#include "analytic/stationary/stationary_solver.hpp"

namespace crawlq::analytic {

struct SolverRegistration {
  Method method;
  std::string_view name;
  std::string_view help;
  std::unique_ptr<StationarySolver> (*make)(const SolveOptions& options);
  MemoryEstimate (*memory)(const model::Model& model);
  // Why the solver cannot take this model, before any work; empty when it can.
  std::string (*refusal)(const model::Model& model);
};

// Every solver but kAuto, in the order --help lists them.
const std::vector<SolverRegistration>& registered_solvers();
// The entry of a method; kAuto resolved for `model` first.
const SolverRegistration& registration(Method method, const model::Model& model);
// "auto (...) | block-recursion (...) | ...": the --method flag's help.
std::string method_help();

}  // namespace crawlq::analytic
