#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace crawlq::app {
// `crawlq validate FILE...`: both engines on each file, side by side, with a verdict per measure.
// Exit status 0 when every measure agrees, 1 when any disagrees beyond the bound, 2 on bad input.
std::function<int()> add_validate_command(CLI::App& app);
}  // namespace crawlq::app
