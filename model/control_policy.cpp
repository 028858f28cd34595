#include "model/control_policy.hpp"

namespace crawlq::model {

std::string policy_kind(const ControlPolicy& policy) {
  return std::visit(Overloaded{[](const Policy&) { return "levels"; },
                               [](const PhaseAwarePolicy&) { return "phase-aware"; },
                               [](const HysteresisPolicy&) { return "hysteresis"; },
                               [](const MemoryPolicy&) { return "memory"; },
                               [](const TablePolicy&) { return "table"; }},
                    policy);
}

}  // namespace crawlq::model
