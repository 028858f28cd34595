#include "sim/policy.hpp"

namespace crawlq::sim {

std::unique_ptr<Policy> make_policy(const model::Model& model, const std::optional<model::Policy>& level_map) {
  if (level_map) return std::make_unique<LevelMapPolicy>(*level_map);
  if (model.policy) return std::make_unique<LevelMapPolicy>(*model.policy);
  if (!model.simulation_policy) return nullptr;
  if (const auto* h = std::get_if<model::HysteresisPolicy>(&*model.simulation_policy))
    return std::make_unique<HysteresisPolicy>(*h);
  return std::make_unique<PhaseAwarePolicy>(std::get<model::PhaseAwarePolicy>(*model.simulation_policy));
}

}  // namespace crawlq::sim
