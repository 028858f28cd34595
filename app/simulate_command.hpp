#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace crawlq::app {
// `crawlq simulate FILE`: discrete-event estimates with 95% confidence intervals.
std::function<int()> add_simulate_command(CLI::App& app);
}  // namespace crawlq::app
