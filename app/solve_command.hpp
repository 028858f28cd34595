#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace crawlq::app {
// `crawlq solve FILE`: the exact stationary measures of one policy. Returns the handler to run.
std::function<int()> add_solve_command(CLI::App& app);
}  // namespace crawlq::app
