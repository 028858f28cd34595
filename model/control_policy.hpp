#pragma once
// Every form a control policy takes, as one closed set. Engines take a ControlPolicy with
// std::visit and no default, so a new form does not compile until each of them says what it does
// with it: runs it, or refuses it by name.
#include <string>
#include <variant>

#include "model/policy.hpp"
#include "model/simulation_policy.hpp"

namespace crawlq::model {

// A level map (thresholds are one way to write it), robots by level and arrival phase, hysteresis
// (the robots active now carry the history), any memory of the mode in force, or a table over the
// whole state.
using ControlPolicy =
    std::variant<Policy, PhaseAwarePolicy, HysteresisPolicy, MemoryPolicy, TablePolicy>;

// One lambda for each form: std::visit(Overloaded{[](const Policy&) {...}, ...}, policy).
template <class... Forms>
struct Overloaded : Forms... {
  using Forms::operator()...;
};
template <class... Forms>
Overloaded(Forms...) -> Overloaded<Forms...>;

// "levels", "phase-aware", "hysteresis", "memory" or "table": the form's name in messages and in
// simulate's JSON.
std::string policy_kind(const ControlPolicy& policy);

}  // namespace crawlq::model
