#include "sim/policy.hpp"

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

}  // namespace crawlq::sim
