#include "sim/policy.hpp"

#include <algorithm>

namespace crawlq::sim {

std::unique_ptr<Policy> make_policy(const model::ControlPolicy& policy) {
  return std::visit(
      model::Overloaded{[](const model::Policy& levels) -> std::unique_ptr<Policy> {
                          return std::make_unique<LevelMapPolicy>(levels);
                        },
                        [](const model::PhaseAwarePolicy& table) -> std::unique_ptr<Policy> {
                          return std::make_unique<PhaseAwarePolicy>(table);
                        },
                        [](const model::HysteresisPolicy& spec) -> std::unique_ptr<Policy> {
                          return std::make_unique<HysteresisPolicy>(spec);
                        },
                        [](const model::MemoryPolicy& spec) -> std::unique_ptr<Policy> {
                          return std::make_unique<MemoryPolicy>(spec);
                        },
                        [](const model::TablePolicy& table) -> std::unique_ptr<Policy> {
                          return std::make_unique<TablePolicy>(table);
                        }},
      policy);
}

bool PiecewisePolicy::needs_phases() const {
  return std::any_of(policies_.begin(), policies_.end(),
                     [](const auto& p) { return p->needs_phases(); });
}

bool PiecewisePolicy::reads_arrival_phase() const {
  return std::any_of(policies_.begin(), policies_.end(),
                     [](const auto& p) { return p->reads_arrival_phase(); });
}

std::unique_ptr<Policy> make_policy(const model::Model& model, const model::ControlPolicy& policy) {
  if (model.piece_policies.empty() || !model.rhythm) return make_policy(policy);
  std::vector<std::unique_ptr<Policy>> pieces;
  for (const model::ControlPolicy& p : model.piece_policies) pieces.push_back(make_policy(p));
  return std::make_unique<PiecewisePolicy>(std::move(pieces), *model.rhythm);
}

}  // namespace crawlq::sim
