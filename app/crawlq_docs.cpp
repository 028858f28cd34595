// crawlq-docs: writes crawlq's man page and bash completion from crawlq's own command line, at
// build time (app/CMakeLists.txt), so that neither can fall behind a command or a flag.
// Usage: crawlq-docs man FILE | crawlq-docs bash-completion FILE
#include <fmt/format.h>

#include <cstring>
#include <fstream>

#include "api/version.hpp"
#include "app/bash_completion.hpp"
#include "app/command_line.hpp"
#include "app/man_page.hpp"

int main(int argc, char** argv) {
  if (argc != 3 ||
      (std::strcmp(argv[1], "man") != 0 && std::strcmp(argv[1], "bash-completion") != 0)) {
    fmt::print(stderr, "usage: crawlq-docs man FILE | crawlq-docs bash-completion FILE\n");
    return 2;
  }
  const std::string what = argv[1], file = argv[2];
  int no_arguments = 1;
  char* program[] = {argv[0], nullptr};
  char** program_argv = program;
  const crawlq::processes::ProcessGroup processes(no_arguments, program_argv);
  const crawlq::app::CommandLine command_line = crawlq::app::make_command_line(processes);
  std::ofstream out(file);
  out << (what == "man" ? crawlq::app::man_page(*command_line.app, crawlq::api::version())
                        : crawlq::app::bash_completion(*command_line.app));
  if (!out.flush()) {
    fmt::print(stderr, "crawlq-docs: cannot write {}\n", file);
    return 1;
  }
  return 0;
}
