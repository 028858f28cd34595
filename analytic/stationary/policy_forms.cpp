#include "analytic/stationary/policy_forms.hpp"

namespace crawlq::analytic {

std::string exact_refusal(const model::ControlPolicy& policy) {
  // Each form the chain takes says how (controlled_arrivals.hpp); a form added to the variant does
  // not compile here until it says whether the exact engine takes it.
  return std::visit(model::Overloaded{[](const model::Policy&) { return std::string(); },
                                      [](const model::PhaseAwarePolicy&) { return std::string(); },
                                      [](const model::HysteresisPolicy&) { return std::string(); },
                                      [](const model::MemoryPolicy&) { return std::string(); },
                                      [](const model::TablePolicy&) { return std::string(); }},
                    policy);
}

}  // namespace crawlq::analytic
