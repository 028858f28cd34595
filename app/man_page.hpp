#pragma once
// crawlq(1) in roff, written from the command line itself (every command and flag, with its help
// text and default), the shipped scenarios, the exit statuses and where the files are.
#include <CLI/CLI.hpp>
#include <string>

namespace crawlq::app {

std::string man_page(const CLI::App& app, const std::string& version);

}  // namespace crawlq::app
