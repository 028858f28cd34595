#pragma once
#include <CLI/CLI.hpp>
#include <functional>

#include "processes/process_group.hpp"

namespace crawlq::app {
// `crawlq sweep FILE --param NAME --values v1,v2,...`: one parameter varied, re-optimised at each
// value; under mpirun the values are spread over `processes` and rank 0 alone writes.
std::function<int()> add_sweep_command(CLI::App& app, const processes::ProcessGroup& processes);
}  // namespace crawlq::app
