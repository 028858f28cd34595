#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace crawlq::app {
// `crawlq describe FILE`: the model in numbers (section 2's BMAP descriptors, PH moments).
std::function<int()> add_describe_command(CLI::App& app);
}  // namespace crawlq::app
