#pragma once
// A bash completion script for crawlq, written from the command line itself: commands (and fit's
// own), each command's flags, file names after a flag that takes a value, and the shipped
// scenarios' names (asked of the crawlq being completed, `crawlq scenarios --names`) where a FILE
// goes.
#include <CLI/CLI.hpp>
#include <string>

namespace crawlq::app {

std::string bash_completion(const CLI::App& app);

}  // namespace crawlq::app
