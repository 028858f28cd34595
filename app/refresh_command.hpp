#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace crawlq::app {
// `crawlq refresh FILE`: page refresh scheduling (Coffman, Liu, Weber 1998).
std::function<int()> add_refresh_command(CLI::App& app);
}  // namespace crawlq::app
