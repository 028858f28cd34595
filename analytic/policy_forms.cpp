#include "analytic/policy_forms.hpp"

namespace crawlq::analytic {

std::string exact_refusal(const model::ControlPolicy& policy) {
  return std::visit(
      model::Overloaded{
          [](const model::Policy&) { return std::string(); },
          [](const model::PhaseAwarePolicy&) {
            return std::string("a phase-aware policy, which only the simulator runs (the exact chain of section 3 "
                               "chooses the robots by the level alone)");
          },
          [](const model::HysteresisPolicy&) {
            return std::string("a hysteresis policy, which only the simulator runs (the exact chain has no room "
                               "for the history it remembers)");
          }},
      policy);
}

std::optional<model::Policy> exact_level_map(const model::ControlPolicy& policy) {
  if (const auto* levels = std::get_if<model::Policy>(&policy)) return *levels;
  return std::nullopt;
}

}  // namespace crawlq::analytic
