#include "sim/policy.hpp"

#include "model/input_error.hpp"

namespace crawlq::sim {

std::unique_ptr<Policy> make_policy(const model::ControlPolicy& policy) {
  return std::visit(
      model::Overloaded{
          [](const model::Policy& levels) -> std::unique_ptr<Policy> { return std::make_unique<LevelMapPolicy>(levels); },
          [](const model::PhaseAwarePolicy& table) -> std::unique_ptr<Policy> {
            return std::make_unique<PhaseAwarePolicy>(table);
          },
          [](const model::HysteresisPolicy& spec) -> std::unique_ptr<Policy> {
            return std::make_unique<HysteresisPolicy>(spec);
          },
          [](const model::MemoryPolicy& spec) -> std::unique_ptr<Policy> {
            return std::make_unique<MemoryPolicy>(spec);
          },
          // The event loop samples whole service times and clocks, so it never sees the phases a
          // table reads.
          [](const model::TablePolicy& table) -> std::unique_ptr<Policy> {
            throw model::InputError("policy.table", table.source + ": a full-state table, which the simulator does not "
                                                                   "run yet (it does not track the phases of the server "
                                                                   "and of each waiting page's clock); `solve` evaluates it");
          }},
      policy);
}

}  // namespace crawlq::sim
