#include "api/request_checks.hpp"

#include <fmt/format.h>

#include "analytic/memory_estimate.hpp"
#include "analytic/solver_registry.hpp"
#include "model/input_error.hpp"

namespace crawlq::api {

namespace {
// Leave a fifth of the machine to everything else.
double available_bytes() { return 0.8 * analytic::physical_memory_bytes(); }
}  // namespace

std::string exact_engine_refusal(const model::Model& model, analytic::Method method) {
  const analytic::MemoryEstimate need = analytic::estimate_memory(model, method);
  const double available = available_bytes();
  if (need.bytes <= available) return "";
  const auto largest = analytic::largest_capacity_within(model, available, method);
  return fmt::format(
      "capacity: {} makes {:.3g} states and needs about {:.3g} GiB for the exact engine, more than "
      "the {:.3g} GiB "
      "this machine can give; {}",
      model.capacity, need.states, need.bytes / (1 << 30), available / (1 << 30),
      largest ? fmt::format("the largest capacity that fits is {}", *largest)
              : std::string("even capacity 1 does not fit"));
}

void require_exact_engine_fits(const model::Model& model, const std::string& source,
                               analytic::Method method) {
  const analytic::SolverRegistration& solver = analytic::registration(method, model);
  if (const std::string why = solver.refusal(model); !why.empty())
    throw model::InputError(fmt::format("{}: --method {}: {}", source, solver.name, why));
  if (const std::string why = exact_engine_refusal(model, method); !why.empty())
    throw model::InputError(fmt::format("{}: {}", source, why));
}

void require_markov_control_fits(const model::Model& model, const std::string& source,
                                 const std::string& what_asked) {
  const double available = available_bytes();
  const analytic::MemoryEstimate need = analytic::markov_control_memory(model);
  if (need.bytes <= available) return;
  model::Model m = model;
  int largest = 0;
  for (m.capacity = 1;
       m.capacity < model.capacity && analytic::markov_control_memory(m).bytes <= available;
       ++m.capacity)
    largest = m.capacity;
  throw model::InputError(fmt::format(
      "{}: {}: capacity {} makes {:.3g} states and every policy that sees them needs about "
      "{:.3g} GiB, more than the {:.3g} GiB this machine can give; {}",
      source, what_asked, model.capacity, need.states, need.bytes / (1 << 30),
      available / (1 << 30),
      largest ? fmt::format("the largest capacity that fits is {}", largest)
              : std::string("even capacity 1 does not fit")));
}

model::ControlPolicy policy_or_default(const model::Model& model, const std::string& source,
                                       const std::string& how) {
  if (model.policy) return *model.policy;
  if (model.modes() == 1)
    return model::Policy::constant(1, 1, model.capacity);  // the only policy there is
  throw model::InputError(
      fmt::format("{}: no policy: the file has no `policy:` section; {}", source, how));
}

}  // namespace crawlq::api
