#pragma once
// The simulation for policies that read the phases of the server and of each waiting page's clock
// (full-state tables): every phase of every law is a state of its own, and each step draws the next
// of all the moves the model's rules allow (the robots' D_k^(r), the server's S, each clock's
// Gamma) from their rates, so the controller sees every change of phase. Slower than the event loop
// of simulator.hpp, which draws whole service times and clocks and never sees their phases; used
// only when the policy needs them.
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "sim/observer.hpp"
#include "sim/policy.hpp"
#include "sim/run_limits.hpp"
#include "sim/run_setup.hpp"

namespace crawlq::sim {

RunStatistics run_phase_level(const model::Model& model, const Policy& policy, std::uint64_t seed,
                              std::uint64_t replication, double observe_from, double until,
                              const std::vector<Observer*>& observers, const RunLimits& limits,
                              const RunSetup& setup = {});

}  // namespace crawlq::sim
