#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace crawlq::app {
// `crawlq schema [KIND]`: every request's fields (key, type, default, help, who takes it), the
// one list the lab, the Python package and --request read documents by.
std::function<int()> add_schema_command(CLI::App& app);
}  // namespace crawlq::app
