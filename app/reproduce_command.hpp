#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace crawlq::app {
// `crawlq reproduce [--out DIR]`: the paper's tables and figures recomputed beside the printed
// values.
std::function<int()> add_reproduce_command(CLI::App& app);
}  // namespace crawlq::app
