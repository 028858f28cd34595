#include "app/command_support.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <sstream>

#include "analytic/memory_estimate.hpp"
#include "analytic/stationary_solver.hpp"
#include "model/input_error.hpp"
#include "model/number_text.hpp"

namespace crawlq::app {

scenarios::Scenario load(const std::string& file) {
  scenarios::Scenario s = scenarios::load_scenario(file);
  for (const auto& repair : s.repairs) fmt::print(stderr, "{}: repaired {}\n", file, repair);
  return s;
}

std::string exact_engine_refusal(const model::Model& model, analytic::Method method) {
  const analytic::MemoryEstimate need = analytic::estimate_memory(model, method);
  // Leave a fifth of the machine to everything else.
  const double available = 0.8 * analytic::physical_memory_bytes();
  if (need.bytes <= available) return "";
  const auto largest = analytic::largest_capacity_within(model, available, method);
  return fmt::format(
      "capacity: {} makes {:.3g} states and needs about {:.3g} GiB for the exact engine, more than the {:.3g} GiB "
      "this machine can give; {}",
      model.capacity, need.states, need.bytes / (1 << 30), available / (1 << 30),
      largest ? fmt::format("the largest capacity that fits is {}", *largest) : std::string("even capacity 1 does not fit"));
}

void require_exact_engine_fits(const model::Model& model, const std::string& file, analytic::Method method) {
  if (const std::string why = exact_engine_refusal(model, method); !why.empty())
    throw UsageError(fmt::format("{}: {}", file, why));
}

std::uint64_t parse_seed(const std::string& text) {
  // Read as text, so that "-1" is refused rather than wrapped to 2^64 - 1.
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 19)
    throw UsageError(fmt::format("--seed: '{}' is not a non-negative integer", text));
  return std::stoull(text);
}

void add_policy_flags(CLI::App* command, PolicyFlags& flags) {
  auto* t = command->add_option("--thresholds", flags.thresholds,
                                "j1,...,j(N-1), -1 <= j1 <= ... <= K: levels j(r-1)+1..j(r) run N-r+1 robots "
                                "(overrides the file's policy)");
  auto* l = command->add_option("--levels", flags.levels,
                                "robots at levels 0..K, e.g. 3,3,3,1,1,1 (any map; overrides the file's policy)");
  t->excludes(l);
}

analytic::Method method_option(const std::string& name) {
  try {
    return analytic::parse_method(name);
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("--method: {}", e.what()));
  }
}

std::vector<double> parse_numbers(const std::string& text, const std::string& flag) {
  std::vector<double> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto v = model::parse_finite_number(item);
    if (!v) throw UsageError(fmt::format("{}: '{}' is not a number (in '{}')", flag, item, text));
    values.push_back(*v);
  }
  if (values.empty()) throw UsageError(fmt::format("{}: no values in '{}'", flag, text));
  return values;
}

std::vector<int> parse_integers(const std::string& text, const std::string& flag) {
  std::vector<int> values;
  for (double v : parse_numbers(text, flag)) {
    if (v != std::floor(v) || std::abs(v) > 1e9)
      throw UsageError(fmt::format("{}: {} is not an integer (in '{}')", flag, v, text));
    values.push_back(static_cast<int>(v));
  }
  return values;
}

std::optional<model::Policy> level_map_policy(const scenarios::Scenario& scenario, const PolicyFlags& flags,
                                              const std::string& file) {
  const model::Model& m = scenario.model;
  try {
    if (!flags.thresholds.empty()) {
      // No thresholds at all is the one-mode case: "--thresholds ''" cannot express it, so allow "none".
      const std::vector<int> t =
          flags.thresholds == "none" ? std::vector<int>{} : parse_integers(flags.thresholds, "--thresholds");
      return model::Policy::from_thresholds(t, m.modes(), m.capacity, "--thresholds");
    }
    if (!flags.levels.empty())
      return model::Policy::from_levels(parse_integers(flags.levels, "--levels"), m.modes(), m.capacity,
                                        "--levels");
  } catch (const model::InputError& e) {
    throw UsageError(e.what());
  }
  if (m.policy) return *m.policy;
  if (m.simulation_policy) return std::nullopt;
  if (m.modes() == 1) return model::Policy::constant(1, 1, m.capacity);  // the only policy there is
  throw UsageError(fmt::format(
      "{}: no policy: the file has no `policy:` section; give --thresholds j1,...,j{} or --levels "
      "m0,...,m{}",
      file, m.modes() - 1, m.capacity));
}

model::Policy choose_policy(const scenarios::Scenario& scenario, const PolicyFlags& flags,
                            const std::string& file) {
  if (auto p = level_map_policy(scenario, flags, file)) return *p;
  throw UsageError(fmt::format(
      "{}: policy: a {} policy, which only the simulator runs (the exact chain has no room for it); run "
      "`crawlq simulate`, or give --thresholds or --levels",
      file, model::policy_kind(*scenario.model.simulation_policy)));
}

}  // namespace crawlq::app
