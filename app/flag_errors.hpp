#pragma once
// The option parser's refusals in the program's own words: a mistyped flag named with the flag it
// most likely meant ("unknown flag --level; did you mean --levels?"), values given as separate
// words where one comma-separated value was meant, an argument with no place. Other refusals
// keep the parser's text.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace crawlq::app {

// `args`: the command line after the program's name.
std::string explain_parse_error(const CLI::App& app, const CLI::ParseError& error,
                                const std::vector<std::string>& args);

}  // namespace crawlq::app
