#pragma once
// What the exact engine does with each form of control policy: the level map it solves, or why it
// cannot take the form (named, so that validate can show the simulation alone and solve can refuse).
#include <optional>
#include <string>

#include "model/control_policy.hpp"

namespace crawlq::analytic {

// Empty when the exact engine solves `policy`.
std::string exact_refusal(const model::ControlPolicy& policy);
// The level map the exact engine solves, or nothing (exact_refusal says why).
std::optional<model::Policy> exact_level_map(const model::ControlPolicy& policy);

}  // namespace crawlq::analytic
