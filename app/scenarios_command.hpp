#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace crawlq::app {
// `crawlq scenarios`: the shipped scenarios and logs, one line each; any of them by name in every
// command.
std::function<int()> add_scenarios_command(CLI::App& app);
}  // namespace crawlq::app
