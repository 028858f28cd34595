#include "app/reproduce_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "api/reproduce_request.hpp"
#include "app/command_support.hpp"
#include "app/simulation_flags.hpp"

namespace crawlq::app {

namespace {

struct ReproduceOptions {
  std::string out;
  std::string seed = "1";
  int threads = 0;
  bool quick = false;
  std::string sections;
  bool json = false;
};

void print_rows(const validation::Reproduction& r) {
  std::string table;
  for (const auto& row : r.rows) {
    if (row.table != table) {
      table = row.table;
      fmt::print("\nTable {}\n  {:<16} {:>10} {:>22}  {}\n", table, "row", "printed", "computed",
                 "");
    }
    const std::string computed = row.half_width > 0
                                     ? fmt::format("{:.4f} +- {:.2g}", row.computed, row.half_width)
                                     : fmt::format("{:.4f}", row.computed);
    fmt::print("  {:<16} {:>10} {:>22}  {}\n", row.label, row.printed.empty() ? "-" : row.printed,
               computed, row.agrees ? "" : "FLAGGED: " + row.note);
  }
}

int run(const ReproduceOptions& o) {
  api::ReproduceRequest request;
  request.seed = parse_seed(o.seed);
  request.threads = o.threads;
  request.quick = o.quick;
  std::stringstream list(o.sections);
  for (std::string section; std::getline(list, section, ',');) request.sections.insert(section);
  if (!o.out.empty()) request.report_directory = o.out;
  if (isatty(fileno(stderr)))
    request.progress = [](const std::string& step) { fmt::print(stderr, "{}...\n", step); };
  const api::ReproduceResult result = api::reproduce(request);
  const validation::Reproduction& r = result.reproduction;
  if (result.report && result.report->figures_drawn < static_cast<int>(r.figures.size()))
    fmt::print(
        stderr,
        "gnuplot is not installed: the figures' scripts are in {} (run gnuplot on each .gp file)\n",
        o.out);
  if (o.json) {
    std::cout << api::to_json(result).dump(2) << '\n';
    return 0;
  }
  print_rows(r);
  fmt::print("\n{} rows, {} flagged.\n", r.rows.size(), result.flagged);
  for (const auto& remark : r.remarks) fmt::print("- {}\n", remark);
  if (result.report)
    fmt::print("\nReport: {} and {} ({} figures)\n", result.report->markdown.string(),
               result.report->html.string(), r.figures.size());
  return 0;
}

}  // namespace

std::function<int()> add_reproduce_command(CLI::App& app) {
  auto o = std::make_shared<ReproduceOptions>();
  CLI::App* cmd = app.add_subcommand(
      "reproduce",
      "The paper's section 7 recomputed beside its printed values: Tables 1 to 5, Figures 1 to 4 and\n"
      "a sample path. A printed value is flagged when the computed one is more than one unit of its\n"
      "last digit away; each flag gives its reason and, where a simulation can settle it, the\n"
      "simulator's 95% interval. With --out DIR: DIR/report.md, DIR/report.html and the figures as\n"
      "SVG (drawn by gnuplot; the .gp scripts stay beside them). A full run takes a few minutes.\n"
      "Examples: crawlq reproduce --out report\n"
      "          crawlq reproduce --json            (the tables only, as JSON rows)");
  cmd->add_option("--out", o->out, "directory for report.md, report.html and the figures");
  cmd->add_option("--seed", o->seed, "seed of the simulations")->capture_default_str();
  add_threads_option(cmd, o->threads, "threads for searches and replications (0: all cores)");
  cmd->add_flag("--quick", o->quick, "short simulations (wide intervals): a preview in seconds");
  cmd->add_option(
      "--sections", o->sections,
      fmt::format(
          "which parts, comma-separated: {} (default: all with --out; without it, the tables "
          "and refresh)",
          fmt::join(api::reproduce_sections(), ",")));
  cmd->add_flag(
      "--json", o->json,
      "machine output on stdout: {\"rows\": [{table, label, printed, computed, agrees}]}");
  return [cmd, o] { return cmd->parsed() ? run(*o) : -1; };
}

}  // namespace crawlq::app
