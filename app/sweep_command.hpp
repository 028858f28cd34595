#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace crawlq::app {
// `crawlq sweep FILE --param NAME --values v1,v2,...`: one parameter varied, re-optimised at each
// value.
std::function<int()> add_sweep_command(CLI::App& app);
}  // namespace crawlq::app
