#pragma once
// A value for every state of the chain as CSV, one line per state in the engine's order: `solve
// --export` (the stationary probabilities) and `optimize --class markov --export-policy` (the
// robots, which `policy: {table: FILE}` reads back).
#include <Eigen/Core>
#include <functional>
#include <string>

#include "analytic/stationary/state_space.hpp"

namespace crawlq::api {

// Columns level, arrival_phase, service_phase (empty at level 0), clock_1..clock_(K-1) (empty past
// the waiting pages), then `value_name`. Written whole or not at all (output::OutputFile);
// model::InputError naming `label` when the file cannot be written.
void write_state_table(const std::string& path, const std::string& label,
                       const analytic::StateSpace& space, const std::string& value_name,
                       const std::function<std::string(Eigen::Index)>& value);

}  // namespace crawlq::api
