#pragma once
// What the exact engine does with each form of control policy: solves it (ControlledArrivals says
// how), or names why it cannot, so that validate can show the simulation alone and solve can
// refuse.
#include <string>

#include "model/control_policy.hpp"

namespace crawlq::analytic {

// Empty when the exact engine solves `policy`.
std::string exact_refusal(const model::ControlPolicy& policy);

}  // namespace crawlq::analytic
