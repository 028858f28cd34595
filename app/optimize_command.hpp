#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace crawlq::app {
// `crawlq optimize FILE`: the best policy of a class by the exact engine.
std::function<int()> add_optimize_command(CLI::App& app);
}  // namespace crawlq::app
