#include "api/request_checks.hpp"

#include <fmt/format.h>

#include "analytic/control/policy_search.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "analytic/stationary/solver_registry.hpp"
#include "model/input_error.hpp"

namespace crawlq::api {

namespace {
double available_bytes() { return analytic::available_memory_bytes(); }
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
                               analytic::Method method, Caller caller) {
  const analytic::SolverRegistration& solver = analytic::registration(method, model);
  if (const std::string why = solver.refusal(model); !why.empty())
    throw model::InputError(
        fmt::format("{}: {}: {}", source, field_given(caller, Field::kMethod, solver.name), why));
  if (const std::string why = exact_engine_refusal(model, method); !why.empty())
    throw model::InputError(fmt::format("{}: {}", source, why));
}

namespace {
// `need_of(model)` if it fits; else a refusal naming the largest capacity that would.
analytic::MemoryEstimate require_fits(
    const model::Model& model, const std::string& source, const std::string& what_asked,
    const std::function<analytic::MemoryEstimate(const model::Model&)>& need_of,
    const char* what_needs) {
  const double available = available_bytes();
  const analytic::MemoryEstimate need = need_of(model);
  if (need.bytes <= available) return need;
  model::Model m = model;
  int largest = 0;
  for (m.capacity = 1; m.capacity < model.capacity && need_of(m).bytes <= available; ++m.capacity)
    largest = m.capacity;
  throw model::InputError(fmt::format(
      "{}: {}: capacity {} makes {:.3g} states and {} about {:.3g} GiB, more than the {:.3g} GiB "
      "this machine can give; {}",
      source, what_asked, model.capacity, need.states, what_needs, need.bytes / (1 << 30),
      available / (1 << 30),
      largest ? fmt::format("the largest capacity that fits is {}", largest)
              : std::string("even capacity 1 does not fit")));
}
}  // namespace

analytic::MemoryEstimate require_markov_control_fits(const model::Model& model,
                                                     const std::string& source,
                                                     const std::string& what_asked) {
  return require_fits(model, source, what_asked, analytic::markov_control_memory,
                      "every policy that sees them needs");
}

analytic::MemoryEstimate require_adjoint_fits(const model::Model& model, const std::string& source,
                                              const std::string& what_asked) {
  return require_fits(model, source, what_asked, analytic::adjoint_memory,
                      "the adjoint solves with their generator need");
}

void require_search_fits(const model::Model& model, const std::string& source,
                         const std::string& what_asked,
                         const std::function<analytic::SearchWork(const model::Model&)>& least_work,
                         const std::string& advice) {
  const analytic::SearchWork need = least_work(model);
  if (need.work <= analytic::kMostSearchWork) return;
  std::string change = advice;
  if (change.empty()) {
    // The least work grows with K but for `auto`'s switch from enumeration to the local search:
    // bisect for a capacity that fits, and say the one found.
    model::Model m = model;
    const auto fits = [&](int k) {
      m.capacity = k;
      return least_work(m).work <= analytic::kMostSearchWork;
    };
    int low = 0, high = model.capacity;
    while (high - low > 1) {
      const int middle = low + (high - low) / 2;
      (fits(middle) ? low : high) = middle;
    }
    change = low >= 1 && fits(low)
                 ? fmt::format("a capacity of {} or less fits", low)
                 : fmt::format("no capacity fits with {} robots: give fewer", model.modes());
  }
  throw model::InputError(fmt::format(
      "{}: {}: {} robots and capacity {} make about {:.4g} policies to solve, each a chain of {:.4g} states: "
      "{:.3g} units of work (policies x (states + {:g} + {:g} per level)), more than the {:.3g} one search may "
      "take; {}",
      source, what_asked, model.modes(), model.capacity, need.policies,
      analytic::estimate_memory(model).states, need.work, analytic::kPolicyOverheadStates,
      analytic::kLevelOverheadStates, analytic::kMostSearchWork, change));
}

std::string local_search_advice(Caller caller, bool exhaustive, const analytic::SearchWork& local) {
  if (!exhaustive || local.work > analytic::kMostSearchWork) return "";
  return fmt::format("give {} (about {:.3g} policies)",
                     field_given(caller, Field::kSearch, "local"), local.policies);
}

void require_class_search_fits(const model::Model& model, const std::string& source,
                               const std::string& policy_class, analytic::Search search,
                               std::int64_t max_maps, Caller caller) {
  // The threshold search inside every class's is often the larger part: the local one may fit.
  const analytic::SearchWork local =
      analytic::least_class_work(model, policy_class, analytic::Search::kLocal, max_maps);
  const bool exhaustive = analytic::choose_search(search, model) == analytic::Search::kExhaustive;
  require_search_fits(
      model, source,
      fmt::format("{}{}", field_given(caller, Field::kClass, policy_class),
                  search == analytic::Search::kAuto
                      ? ""
                      : fmt::format(" {}", field_given(caller, Field::kSearch,
                                                       analytic::search_name(search)))),
      [&](const model::Model& m) {
        return analytic::least_class_work(m, policy_class, search, max_maps);
      },
      local_search_advice(caller, exhaustive, local));
}

void refuse_unconverged(const model::Model& model, const std::string& source,
                        const analytic::StationarySummary& summary, Caller caller) {
  // Another method that fits in memory, the direct ones first: they need no convergence.
  std::string others;
  for (analytic::Method m : {analytic::Method::kSparseLu, analytic::Method::kBlockRecursion,
                             analytic::Method::kIterative})
    if (m != summary.method && exact_engine_refusal(model, m).empty())
      others += fmt::format("{}{}", others.empty() ? "" : " or ",
                            field_given(caller, Field::kMethod, analytic::method_name(m)));
  throw model::InputError(fmt::format(
      "{}: {}: the stationary solve did not converge ({}{}); {}", source,
      field_given(caller, Field::kMethod, analytic::method_name(summary.method)), summary.message,
      summary.fallback.empty() ? "" : ", after " + summary.fallback,
      others.empty() ? "no other method fits in memory: lower the capacity" : "give " + others));
}

model::Model searched_model(const model::Model& model) {
  model::Model searched = model;
  searched.policy.reset();
  return searched;
}

model::ControlPolicy policy_or_default(const model::Model& model, const std::string& source,
                                       const std::string& how) {
  if (model.policy) return *model.policy;
  if (model.modes() == 1)
    return model::Policy::constant(1, 1, model.capacity);  // the only policy there is
  throw model::InputError(
      fmt::format("{}: no policy: the file has no `policy:` section; {}", source, how));
}

void require_no_rhythm(const model::Model& model, const std::string& source,
                       const std::string& command) {
  if (!model.rhythm) return;
  throw model::InputError(
      source + ": rhythm",
      fmt::format("crawlq {} does not follow a rhythm yet; crawlq solve computes its periodic "
                  "regime (remove `rhythm:` to {} the scenario at its base rates)",
                  command, command));
}

}  // namespace crawlq::api
