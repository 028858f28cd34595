#pragma once
#include <CLI/CLI.hpp>
#include <functional>

#include "processes/process_group.hpp"

namespace crawlq::app {
// `crawlq simulate FILE`: discrete-event estimates with 95% confidence intervals; under mpirun the
// replications are spread over `processes` and rank 0 alone writes.
std::function<int()> add_simulate_command(CLI::App& app, const processes::ProcessGroup& processes);
}  // namespace crawlq::app
