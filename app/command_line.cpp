#include "app/command_line.hpp"

#include <fmt/format.h>

#include "api/version.hpp"
#include "app/command_support.hpp"
#include "app/describe_command.hpp"
#include "app/fit_command.hpp"
#include "app/help_formatter.hpp"
#include "app/lab_command.hpp"
#include "app/optimize_command.hpp"
#include "app/refresh_command.hpp"
#include "app/reproduce_command.hpp"
#include "app/scenarios_command.hpp"
#include "app/schema_command.hpp"
#include "app/simulate_command.hpp"
#include "app/solve_command.hpp"
#include "app/sweep_command.hpp"
#include "app/validate_command.hpp"

namespace crawlq::app {

using processes::ProcessGroup;

CommandLine make_command_line(const ProcessGroup& processes) {
  auto app = std::make_unique<CLI::App>(
      "crawlq: loss, obsolescence and starvation of the page queue between crawling robots and an\n"
      "indexer, under threshold control of the robots (Avrachenkov, Dudin, Klimenok, Nain, Semenova\n"
      "2011). Every command reads a scenario file (see interface.md), or a shipped scenario by name\n"
      "(crawlq scenarios lists them), and takes --json.\n"
      "Start with: crawlq describe paper-example-1",
      "crawlq");
  // Set before the commands are added: each takes its parent's formatter.
  app->formatter(std::make_shared<WrappingFormatter>());
  app->set_version_flag("--version", fmt::format("crawlq {}", api::version()),
                        "the version and the git commit built");
  app->require_subcommand(1);
  std::vector<std::function<int()>> commands{add_solve_command(*app),
                                             add_optimize_command(*app),
                                             add_describe_command(*app),
                                             add_simulate_command(*app, processes),
                                             add_validate_command(*app),
                                             add_reproduce_command(*app),
                                             add_sweep_command(*app, processes),
                                             add_refresh_command(*app),
                                             add_lab_command(*app),
                                             add_fit_command(*app),
                                             add_scenarios_command(*app),
                                             add_schema_command(*app)};
  read_option_values_as_written(*app);
  return {std::move(app), std::move(commands)};
}

}  // namespace crawlq::app
