#pragma once
// The crawlq command line, made in one place: the top-level help, --version, and every command in
// the order `crawlq --help` lists them. main parses and runs it; the man page and the bash
// completion are generated from it (crawlq_docs.cpp), so a new command or flag reaches all three.
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <vector>

#include "processes/process_group.hpp"

namespace crawlq::app {

struct CommandLine {
  std::unique_ptr<CLI::App> app;
  // Each runs its command when that command was given (its exit status), else returns -1.
  std::vector<std::function<int()>> commands;
};

CommandLine make_command_line(const processes::ProcessGroup& processes);

}  // namespace crawlq::app
