// crawlq: the queue between a search engine's crawling robots and its indexer (Avrachenkov et al.
// 2011). Exit status: 0 success, 1 a computation that failed, 2 bad input.
#include <fmt/format.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "app/command_line.hpp"
#include "app/command_support.hpp"
#include "app/flag_errors.hpp"
#include "app/runtime_environment.hpp"
#include "model/message_text.hpp"
#include "output/output_file.hpp"
#include "processes/process_group.hpp"
#include "scenarios/scenario_loader.hpp"
#include "scenarios/yaml_reader.hpp"

namespace {
// With both streams into one file or pipe (2>&1 | tee), a note on stderr would land in the middle
// of a table still held in stdout's buffer: stdout then goes out line by line, in the order
// written.
void keep_streams_in_order() {
  struct stat out {
  }, err{};
  if (fstat(fileno(stdout), &out) != 0 || fstat(fileno(stderr), &err) != 0) return;
  if (out.st_dev == err.st_dev && out.st_ino == err.st_ino)
    std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
}
}  // namespace

int main(int argc, char** argv) {
  using crawlq::app::ExitCode;
  crawlq::app::start_with_runtime_settings(argv);
  keep_streams_in_order();
  // Under mpirun, P processes; otherwise this one. Only rank 0 prints.
  const crawlq::processes::ProcessGroup processes(argc, argv);
  crawlq::app::CommandLine command_line = crawlq::app::make_command_line(processes);
  CLI::App& app = *command_line.app;
  const auto& commands = command_line.commands;
  std::string known;
  bool is_known = false;
  for (const auto* sub : app.get_subcommands({})) {
    known += (known.empty() ? "" : ", ") + sub->get_name();
    is_known = is_known || (argc > 1 && sub->get_name() == argv[1]);
  }
  if (argc == 1) {
    fmt::print(stderr, "crawlq: no command given (known: {}; see crawlq --help)\n", known);
    return static_cast<int>(ExitCode::kBadInput);
  }
  if (argv[1][0] != '-' && !is_known) {
    fmt::print(stderr, "crawlq: unknown command '{}' (this build has: {}; see crawlq --help)\n",
               crawlq::scenarios::shortened(argv[1]), known);
    return static_cast<int>(ExitCode::kBadInput);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(
        stderr, "crawlq: {}\n",
        crawlq::app::explain_parse_error(app, e, std::vector<std::string>(argv + 1, argv + argc)));
    return static_cast<int>(ExitCode::kBadInput);
  }
  // sweep and simulate spread their work over the processes; every other command runs on rank 0
  // (the others have checked the same command line, so a bad one still exits 2 everywhere).
  if (!processes.is_root() && !app.got_subcommand("sweep") && !app.got_subcommand("simulate"))
    return static_cast<int>(ExitCode::kOk);
  try {
    for (const auto& command : commands)
      if (const int status = command(); status >= 0) {
        crawlq::app::print_notes();
        return status;
      }
  } catch (const crawlq::model::InputError& e) {  // every kind of bad input
    fmt::print(stderr, "{}\n", e.shown());
    return static_cast<int>(ExitCode::kBadInput);
  } catch (const std::exception& e) {
    // The other processes may be waiting for this one in a collective: end them all.
    if (processes.size() > 1) processes.abort(fmt::format("crawlq: internal error: {}", e.what()));
    fmt::print(stderr, "crawlq: internal error: {}\n", crawlq::model::valid_utf8(e.what()));
    return static_cast<int>(ExitCode::kFailed);
  }
  return static_cast<int>(ExitCode::kBadInput);
}
