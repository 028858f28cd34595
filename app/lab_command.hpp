#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace crawlq::app {
// `crawlq lab [FILE...] [--port P] [--host H]`: the interactive page for teaching and exploring,
// served by a local web server over the lab's JSON API (lab_api.hpp).
std::function<int()> add_lab_command(CLI::App& app);
}  // namespace crawlq::app
